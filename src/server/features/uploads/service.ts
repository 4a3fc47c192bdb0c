import { randomUUID } from 'node:crypto';
import type { Storage } from '../../adapters/storage/storage.ts';
import { type ProcessedImage, processImage } from './images.ts';

// Item photos: every file is checked and re-encoded before any is stored, so one bad file stores nothing.

export interface ReceivedImage {
  filename: string;
  data: Buffer;
}

/** One after another: each decode may take up to 40 megapixels of memory. */
export async function preparePhotos(images: ReceivedImage[]): Promise<ProcessedImage[]> {
  const prepared: ProcessedImage[] = [];
  for (const image of images) prepared.push(await processImage(image.data));
  return prepared;
}

/** `items/<yyyy>/<mm>/<uuid>`: `thumbnailOf()` in #shared/schemas/items.ts finds `<uuid>-thumb.jpg` beside it. */
function newPhotoKey(now = new Date()): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `items/${now.getUTCFullYear()}/${month}/${randomUUID()}`;
}

/** Stores each photo and its thumbnail; answers the photos' public URLs. All or nothing. */
export async function storePhotos(storage: Storage, photos: ProcessedImage[]): Promise<string[]> {
  const urls: string[] = [];
  const written: string[] = [];
  try {
    for (const photo of photos) {
      const key = newPhotoKey();
      await storage.put(`${key}-thumb.jpg`, photo.thumb, 'image/jpeg');
      written.push(`${key}-thumb.jpg`);
      urls.push(await storage.put(`${key}.jpg`, photo.full, 'image/jpeg'));
      written.push(`${key}.jpg`);
    }
  } catch (error) {
    await Promise.allSettled(written.map((key) => storage.delete(key)));
    throw error;
  }
  return urls;
}
