import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageQueue } from '../../src/server/features/uploads/image-queue.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Photo processing is CPU-bound, so each process handles a few uploads at a time; a few more
// wait their turn, and past that an upload is refused at once with 503 and Retry-After. The test holds
// the only turn itself, so what happens to the uploads behind it is certain.

const queue = createImageQueue({ concurrency: 1, waiting: 1, pixels: 128_000_000 });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-upload-queue-'));
const uploadsDir = path.join(dataDir, 'uploads');
const t = setupTestApp({ dataDir, uploadsDir }, { imageQueue: queue });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

let cookie: string;
let body: { payload: Buffer; contentType: string };
beforeAll(async () => {
  ({ cookie } = await createSignedInUser(t.database.db));
  const form = new FormData();
  const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#2f855a' } })
    .jpeg()
    .toBuffer();
  form.append('images', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'a.jpg');
  const response = new Response(form);
  body = {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
});

const upload = () =>
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

async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('the photo processing queue', () => {
  it('lets an upload wait its turn, refuses the next with 503 and Retry-After, and stores nothing for it', async () => {
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)), 0);

    const waiting = upload();
    // The waiting upload has taken the one place in the line.
    await until(() => queue.isFull());
    const before = storedCount();

    const refused = await upload();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({
      code: 'UPLOADS_BUSY',
      message: 'Many photos are being processed right now. Please try again in a few seconds.',
    });
    expect(storedCount()).toBe(before);

    release();
    await held;
    const served = await waiting;
    expect(served.statusCode).toBe(200);
    expect(served.json().urls).toHaveLength(1);

    // With the line empty again, uploads go through.
    expect((await upload()).statusCode).toBe(200);
  });
});
