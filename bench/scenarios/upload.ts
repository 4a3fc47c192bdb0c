import sharp from 'sharp';
import { thumbnailOf } from '#shared/schemas/items.ts';
import type { Person } from '../fixtures.ts';

// Upload: five phone-sized photos (about 4 MB each, 12 megapixels) in one request, as the List Item
// form sends them, timed until the processed photos' URLs come back and every photo and thumbnail is
// served. Rounds run one after another, as one person would.

export interface UploadResult {
  rounds: number;
  photos: number;
  megabytesPerRound: number;
  /** Seconds from sending the request to having every processed photo and thumbnail. */
  seconds: number[];
  medianSeconds: number;
  maxSeconds: number;
}

/**
 * A 12-megapixel JPEG of about `targetBytes`: soft gradients with sensor-like noise, so it compresses
 * like a photo rather than like a flat colour. The quality is searched until the size fits.
 */
export async function makePhoto(
  targetBytes: number,
  seed: number,
  width = 4000,
  height = 3000,
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let s = (seed * 2654435761) % 2 ** 32 || 1;
  const noise = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 41) - 20;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = Math.max(0, Math.min(255, (((x * 255) / width + seed * 40) % 256) + noise()));
      raw[i + 1] = Math.max(0, Math.min(255, (y * 255) / height + noise()));
      raw[i + 2] = Math.max(0, Math.min(255, 128 + 60 * Math.sin((x + y) / 180 + seed) + noise()));
    }
  }
  const encode = (quality: number) =>
    sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
  let low = 30;
  let high = 98;
  let best = await encode(low);
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const out = await encode(mid);
    if (out.length <= targetBytes) {
      best = out;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

export async function runUpload(options: {
  url: string;
  uploader: Person;
  photos: Buffer[];
  rounds: number;
}): Promise<UploadResult> {
  const seconds: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const form = new FormData();
    options.photos.forEach((photo, i) => {
      form.append(
        'images',
        new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }),
        `IMG_${round}${i}.jpg`,
      );
    });
    const started = performance.now();
    const response = await fetch(`${options.url}/api/upload/proxy`, {
      method: 'POST',
      headers: { origin: options.url, cookie: options.uploader.cookie },
      body: form,
    });
    const body = (await response.json()) as { urls?: string[]; message?: string };
    if (!response.ok || !body.urls) throw new Error(`upload answered ${response.status}: ${body.message}`);
    if (body.urls.length !== options.photos.length)
      throw new Error(`upload stored ${body.urls.length} photos`);
    await Promise.all(
      body.urls.flatMap((url) =>
        [url, thumbnailOf(url)].map(async (photo) => {
          const served = await fetch(new URL(photo, options.url));
          await served.arrayBuffer();
          if (!served.ok) throw new Error(`${photo} answered ${served.status}`);
        }),
      ),
    );
    seconds.push(Math.round((performance.now() - started) / 10) / 100);
  }
  const sorted = [...seconds].sort((a, b) => a - b);
  return {
    rounds: options.rounds,
    photos: options.photos.length,
    megabytesPerRound: Math.round(options.photos.reduce((s, p) => s + p.length, 0) / 10_485.76) / 100,
    seconds,
    medianSeconds: sorted[Math.floor(sorted.length / 2)]!,
    maxSeconds: sorted[sorted.length - 1]!,
  };
}
