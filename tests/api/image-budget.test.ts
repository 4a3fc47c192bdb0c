import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageQueue } from '../../src/server/features/uploads/image-queue.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Small files, big pictures: a 46 KB PNG of 3990 × 3990 decodes to 48 MB and a second of CPU. The pixels
// an upload will decode are read from the headers first: one upload may ask for 64 megapixels, and the
// process holds at most its budget (128 by default) across the uploads it has admitted; past it, 503
// with Retry-After. Memory stays bounded under a burst of such uploads (decision 038).

/** The ceiling of the process's memory growth under the burst below (decision 038). */
const RSS_GROWTH_CEILING_MB = 300;

const queue = createImageQueue({ concurrency: 2, waiting: 10, pixels: 128_000_000 });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-image-budget-'));
const uploadsDir = path.join(dataDir, 'uploads');
const t = setupTestApp({ dataDir, uploadsDir }, { imageQueue: queue });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

let cookie: string;
let bigPng: Buffer;
beforeAll(async () => {
  ({ cookie } = await createSignedInUser(t.database.db));
  bigPng = await sharp({ create: { width: 3990, height: 3990, channels: 3, background: '#f4f4f4' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
});

async function form(count: number, photo: Buffer) {
  const data = new FormData();
  for (let i = 0; i < count; i++) {
    data.append('images', new Blob([new Uint8Array(photo)], { type: 'image/png' }), `plain-${i}.png`);
  }
  const response = new Response(data);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

const upload = (body: { payload: Buffer; contentType: string }) =>
  t.request({
    method: 'POST',
    url: '/api/upload/proxy',
    payload: body.payload,
    headers: { 'content-type': body.contentType },
    cookie,
  });

function storedCount(): number {
  try {
    return readdirSync(uploadsDir, { recursive: true }).filter((f) => String(f).endsWith('.jpg')).length;
  } catch {
    return 0;
  }
}

describe('the pixel budget of uploads', () => {
  it('refuses five small PNGs of 3990 × 3990 in one upload with a clear 400, and stores nothing', async () => {
    expect(bigPng.length).toBeLessThan(100_000);
    const before = storedCount();
    const response = await upload(await form(5, bigPng));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code: 'TOO_MANY_PIXELS',
      message:
        'Together these photos have too many pixels (max 64 megapixels in one upload). Send fewer at once, or smaller ones.',
    });
    expect(storedCount()).toBe(before);
    expect(queue.pixelsHeld()).toBe(0);
  });

  it('six such uploads at once: the budget admits two, the rest hear 503 and Retry-After; memory stays bounded', async () => {
    // Four photos of 15.9 megapixels: within one upload's budget, two of them fill the process's.
    const body = await form(4, bigPng);
    const before = storedCount();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    let answers: Awaited<ReturnType<typeof upload>>[];
    try {
      answers = await Promise.all(Array.from({ length: 6 }, () => upload(body)));
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    const growthMb = (peak - baseline) / 1024 / 1024;
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 200, 503, 503, 503, 503]);
    for (const refused of answers.filter((a) => a.statusCode === 503)) {
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json().code).toBe('UPLOADS_BUSY');
    }
    // Two uploads of four photos, each with its thumbnail.
    expect(storedCount()).toBe(before + 2 * 4 * 2);
    expect(queue.pixelsHeld()).toBe(0);
    expect(growthMb).toBeLessThan(RSS_GROWTH_CEILING_MB);

    // The budget is free again: the next upload goes through.
    expect((await upload(await form(1, bigPng))).statusCode).toBe(200);
  });
});
