import { randomUUID } from 'node:crypto';
import type { Storage } from '../../adapters/storage/storage.ts';
import { countPixels, type ProcessedImage, processAvatar, processImage } from './images.ts';
import type { ReceivedImage } from './receive.ts';

// Item photos: every file is checked and re-encoded before any is stored, so one bad file stores nothing.
// Profile photos go the same way, cropped square: Account settings receives and stores them
// through what this file exports.

export { type ImageQueue, UploadsBusyError } from './image-queue.ts';
export { discardRestOfBody, type ReceivedImage, receiveFiles } from './receive.ts';

/** What the upload's photos decode to, from their headers: checked against the upload's budget. */
export const pixelsOf = (images: readonly ReceivedImage[]) => countPixels(images.map((image) => image.data));

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

/** A profile photo: checked, oriented, stripped of metadata and cropped to a square with its thumbnail. */
export const prepareAvatar = (image: ReceivedImage) => processAvatar(image.data);

const AVATAR_KEY = /^avatars\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/;

/** `avatars/<yyyy>/<mm>/<uuid>.jpg` and its `-thumb.jpg` (thumbnailOf() finds it); answers the photo's URL. */
export async function storeAvatar(
  storage: Storage,
  photo: ProcessedImage,
  now = new Date(),
): Promise<string> {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const key = `avatars/${now.getUTCFullYear()}/${month}/${randomUUID()}`;
  await storage.put(`${key}-thumb.jpg`, photo.thumb, 'image/jpeg');
  try {
    return await storage.put(`${key}.jpg`, photo.full, 'image/jpeg');
  } catch (error) {
    await storage.delete(`${key}-thumb.jpg`).catch(() => undefined);
    throw error;
  }
}

/** Deletes a profile photo this storage holds (and its thumbnail); any other URL (a demo icon) is left. */
export async function deleteAvatar(storage: Storage, url: string): Promise<void> {
  const key = /(avatars\/\d{4}\/\d{2}\/[0-9a-f-]{36})\.jpg$/.exec(url)?.[1];
  if (!key || !AVATAR_KEY.test(key) || storage.urlFor(`${key}.jpg`) !== url) return;
  await Promise.allSettled([storage.delete(`${key}.jpg`), storage.delete(`${key}-thumb.jpg`)]);
}

const PHOTO_FILE = /(items\/\d{4}\/\d{2}\/[0-9a-f-]{36})\.jpg$/;

/** Deletes photos this storage holds (each with its thumbnail); any other URL is left. Never throws. */
export async function deletePhotos(storage: Storage, urls: readonly string[]): Promise<void> {
  const keys = urls.flatMap((url) => {
    const key = PHOTO_FILE.exec(url)?.[1];
    return key && storage.urlFor(`${key}.jpg`) === url ? [`${key}.jpg`, `${key}-thumb.jpg`] : [];
  });
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
}
