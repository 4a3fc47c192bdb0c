import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbnailOf } from '#shared/schemas/items.ts';
import type { Storage } from '../../src/server/adapters/storage/storage.ts';
import { storePhotos } from '../../src/server/features/uploads/service.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-uploads-'));
const uploadsDir = path.join(dataDir, 'uploads');
const t = setupTestApp({ dataDir, uploadsDir });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

let cookie: string;
beforeAll(async () => {
  ({ cookie } = await createSignedInUser(t.database.db));
});

type Part = { name?: string; filename: string; type?: string; data: Buffer | string };

/** A multipart body the way a browser's FormData sends it. */
async function multipart(parts: Part[]) {
  const form = new FormData();
  for (const part of parts) {
    const blob = new Blob([typeof part.data === 'string' ? part.data : new Uint8Array(part.data)], {
      type: part.type ?? 'application/octet-stream',
    });
    form.append(part.name ?? 'images', blob, part.filename);
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

async function upload(parts: Part[], options: { signedOut?: boolean; origin?: string } = {}) {
  const body = await multipart(parts);
  return t.request({
    method: 'POST',
    url: '/api/upload/proxy',
    payload: body.payload,
    headers: {
      'content-type': body.contentType,
      ...(options.origin ? { origin: options.origin } : {}),
    },
    cookie: options.signedOut ? undefined : cookie,
  });
}

const image = (width: number, height: number, background = '#2f855a') =>
  sharp({ create: { width, height, channels: 3, background } });

/** Every file under the uploads folder, relative to it. */
function storedFiles(): string[] {
  try {
    return readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(uploadsDir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

const fileOf = (url: string) => path.join(uploadsDir, url.replace(/^\/uploads\//, ''));

describe('POST /api/upload/proxy', () => {
  it('stores each photo re-encoded within 1920 px, with a small thumbnail beside it', async () => {
    const wide = await image(2400, 1600).png().toBuffer();
    const small = await image(640, 480, '#c05621').webp().toBuffer();
    const response = await upload([
      { filename: 'desk.png', type: 'image/png', data: wide },
      { filename: 'lamp.webp', type: 'image/webp', data: small },
    ]);
    expect(response.statusCode).toBe(200);
    const { success, urls } = response.json();
    expect(success).toBe(true);
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^\/uploads\/items\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/);

    const full = await sharp(await readFile(fileOf(urls[0]))).metadata();
    expect(full).toMatchObject({ format: 'jpeg', width: 1920, height: 1280 });
    const thumb = await sharp(await readFile(fileOf(thumbnailOf(urls[0])))).metadata();
    expect(thumb).toMatchObject({ format: 'jpeg', width: 480, height: 320 });

    // Never enlarged.
    const second = await sharp(await readFile(fileOf(urls[1]))).metadata();
    expect(second).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
    const secondThumb = await sharp(await readFile(fileOf(thumbnailOf(urls[1])))).metadata();
    expect(Math.max(secondThumb.width, secondThumb.height)).toBeLessThanOrEqual(480);
  });

  it('serves stored photos at their URL with long cache headers', async () => {
    const response = await upload([
      { filename: 'a.jpg', type: 'image/jpeg', data: await image(50, 40).jpeg().toBuffer() },
    ]);
    const [url] = response.json().urls;
    const served = await t.get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(await readFile(fileOf(url)))).toBe(true);
    expect((await t.get(thumbnailOf(url))).statusCode).toBe(200);

    const missing = await t.get('/uploads/items/2020/01/nothing.jpg');
    expect(missing.statusCode).toBe(404);
    expect((await t.get('/uploads/../../etc/passwd')).statusCode).toBe(404);
  });

  it('accepts GIF and AVIF too, read from the bytes whatever the name says', async () => {
    const response = await upload([
      { filename: 'anim.png', type: 'image/png', data: await image(40, 30).gif().toBuffer() },
      { filename: 'photo', data: await image(40, 30).avif().toBuffer() },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json().urls).toHaveLength(2);
  });

  it('removes every piece of metadata, GPS above all', async () => {
    const withGps = await image(400, 300)
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneCam', Copyright: 'Ada' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '37/1 25/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '122/1 10/1 0/1',
        },
      })
      .toBuffer();
    const source = await sharp(withGps).metadata();
    // The GPS IFD pointer (tag 0x8825, little-endian) is in the source's EXIF.
    expect(source.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    expect(withGps.includes('PhoneCam')).toBe(true);

    const response = await upload([{ filename: 'where-i-live.jpg', type: 'image/jpeg', data: withGps }]);
    expect(response.statusCode).toBe(200);
    const [url] = response.json().urls;
    for (const file of [fileOf(url), fileOf(thumbnailOf(url))]) {
      const bytes = await readFile(file);
      const stored = await sharp(bytes).metadata();
      expect(stored.exif).toBeUndefined();
      expect(stored.icc).toBeUndefined();
      expect(stored.xmp).toBeUndefined();
      expect(stored.iptc).toBeUndefined();
      expect(bytes.includes('PhoneCam')).toBe(false);
    }
  });

  it("applies the camera's orientation before removing it", async () => {
    const sideways = await image(400, 300).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const response = await upload([{ filename: 'portrait.jpg', type: 'image/jpeg', data: sideways }]);
    const stored = await sharp(await readFile(fileOf(response.json().urls[0]))).metadata();
    expect(stored).toMatchObject({ width: 300, height: 400 });
    expect(stored.orientation).toBeUndefined();
  });

  it('refuses a file that is not an image whatever its name, and stores nothing', async () => {
    const before = storedFiles();
    const good = await image(50, 50).jpeg().toBuffer();
    const response = await upload([
      { filename: 'ok.jpg', type: 'image/jpeg', data: good },
      { filename: 'notes.jpg', type: 'image/jpeg', data: 'Dear diary, this is not a photo.' },
    ]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: 'Only JPEG, PNG, WebP, GIF or AVIF images can be uploaded.',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses SVG (it can carry script)', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const response = await upload([{ filename: 'logo.svg', type: 'image/svg+xml', data: svg }]);
    expect(response.statusCode).toBe(415);
  });

  it('refuses a sixth file and stores nothing', async () => {
    const before = storedFiles();
    const photo = await image(20, 20).jpeg().toBuffer();
    const response = await upload(
      Array.from({ length: 6 }, (_, i) => ({ filename: `p${i}.jpg`, type: 'image/jpeg', data: photo })),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'You can upload a maximum of 5 images.' });
    expect(storedFiles()).toEqual(before);
  });

  it('accepts exactly five', async () => {
    const photo = await image(20, 20).jpeg().toBuffer();
    const response = await upload(
      Array.from({ length: 5 }, (_, i) => ({ filename: `p${i}.jpg`, type: 'image/jpeg', data: photo })),
    );
    expect(response.statusCode).toBe(200);
    expect(new Set(response.json().urls).size).toBe(5);
  });

  it('refuses a file over 5 MB by name, and stores nothing', async () => {
    const before = storedFiles();
    const small = await image(20, 20).jpeg().toBuffer();
    const huge = Buffer.alloc(6 * 1024 * 1024, 0xab);
    const response = await upload([
      { filename: 'small.jpg', type: 'image/jpeg', data: small },
      { filename: 'huge.jpg', type: 'image/jpeg', data: huge },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ message: 'Files too large (max 5MB): huge.jpg' });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses an empty file and a corrupt one', async () => {
    const empty = await upload([{ filename: 'empty.jpg', type: 'image/jpeg', data: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'This file is empty or not a readable image.' });

    const jpeg = await image(200, 200).jpeg().toBuffer();
    const cut = await upload([{ filename: 'cut.jpg', type: 'image/jpeg', data: jpeg.subarray(0, 200) }]);
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ message: 'This file is empty or not a readable image.' });
  });

  it('refuses an image with too many pixels (a decompression bomb) from its header, before decoding', async () => {
    // 48 megapixels of one colour compress to a few hundred KB: the classic decompression bomb.
    const bomb = await image(8000, 6000).jpeg({ quality: 10 }).toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const response = await upload([{ filename: 'bomb.jpg', type: 'image/jpeg', data: bomb }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'This image has too many pixels (max 40 megapixels).',
      code: 'TOO_MANY_PIXELS',
    });
  });

  it('gives PNG and GIF a lower pixel budget (16 MP): they compress a plain area to almost nothing', async () => {
    // 16.4 megapixels in a few KB: decoding it cost about a second of CPU before the budget.
    const png = await image(4100, 4000).png({ compressionLevel: 9 }).toBuffer();
    expect(png.length).toBeLessThan(200 * 1024);
    const refused = await upload([{ filename: 'plain.png', type: 'image/png', data: png }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message:
        'This PNG image has too many pixels (max 16 megapixels for PNG and GIF). Save it as a JPEG, or make it smaller.',
      code: 'TOO_MANY_PIXELS',
    });
    const gif = await image(4100, 4000).gif().toBuffer();
    const refusedGif = await upload([{ filename: 'plain.gif', type: 'image/gif', data: gif }]);
    expect(refusedGif.statusCode).toBe(400);
    expect(refusedGif.json().message).toMatch(/^This GIF image has too many pixels/);

    // The same size as a photo format is fine.
    const jpeg = await image(4100, 4000).jpeg().toBuffer();
    expect((await upload([{ filename: 'photo.jpg', type: 'image/jpeg', data: jpeg }])).statusCode).toBe(200);
  });

  it('refuses a request without images, or with another field', async () => {
    const none = await upload([]);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: 'No images received.' });

    const photo = await image(20, 20).jpeg().toBuffer();
    const other = await upload([{ name: 'photo', filename: 'a.jpg', type: 'image/jpeg', data: photo }]);
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toMatch(/field "images"/);

    const json = await t.post('/api/upload/proxy', { images: ['x'] }, cookie);
    expect(json.statusCode).toBe(415);
  });

  it('limits each person to 30 uploads a minute', async () => {
    const busy = await createSignedInUser(t.database.db);
    const body = await multipart([]);
    const send = (who: string) =>
      t.request({
        method: 'POST',
        url: '/api/upload/proxy',
        payload: body.payload,
        headers: { 'content-type': body.contentType },
        cookie: who,
      });
    for (let i = 0; i < 30; i++) expect((await send(busy.cookie)).statusCode).toBe(400);
    const limited = await send(busy.cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Someone else on the same network is not held back.
    expect((await send(cookie)).statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    const response = await upload(
      [{ filename: 'a.jpg', type: 'image/jpeg', data: await image(20, 20).jpeg().toBuffer() }],
      { signedOut: true },
    );
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a request from another site', async () => {
    const response = await upload(
      [{ filename: 'a.jpg', type: 'image/jpeg', data: await image(20, 20).jpeg().toBuffer() }],
      { origin: 'https://evil.example' },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CROSS_ORIGIN' });
  });
});

describe('storePhotos', () => {
  it('removes what it already stored when storage fails part way', async () => {
    const kept = new Map<string, Buffer>();
    let puts = 0;
    const flaky: Storage = {
      kind: 's3',
      async put(key, data) {
        if (++puts === 3) throw new Error('bucket unreachable');
        kept.set(key, data);
        return this.urlFor(key);
      },
      async delete(key) {
        kept.delete(key);
      },
      urlFor: (key) => `https://photos.example/${key}`,
      ownsPhotoUrl: (url) => url.startsWith('https://photos.example/'),
    };
    const photo = { full: Buffer.from('full'), thumb: Buffer.from('thumb'), width: 1, height: 1 };
    await expect(storePhotos(flaky, [photo, photo])).rejects.toThrow('bucket unreachable');
    expect(puts).toBe(3);
    expect(kept.size).toBe(0);
  });
});
