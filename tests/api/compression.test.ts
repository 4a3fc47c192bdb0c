import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// API JSON goes out compressed when the browser accepts it; photos, already compressed,
// and the service worker do not change.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-compress-'));
const uploadsDir = path.join(dataDir, 'uploads');
const webDir = path.join(dataDir, 'web');
mkdirSync(path.join(uploadsDir, 'items'), { recursive: true });
mkdirSync(webDir, { recursive: true });
// Photo bytes as a JPEG has them: nothing a second compression would win.
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 7)]);
writeFileSync(path.join(uploadsDir, 'items', 'photo.jpg'), PHOTO);
const WORKER = `self.addEventListener('fetch', () => {});\n${'// precache list\n'.repeat(200)}`;
writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
);
writeFileSync(path.join(webDir, 'sw.js'), WORKER);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const t = setupTestApp({ dataDir, uploadsDir, webDir });

beforeAll(async () => {
  const lender = await createUser(t.database.db);
  for (let i = 0; i < 12; i++) {
    await createItem(t.database.db, {
      userId: lender.id,
      title: `Compressible item ${i}`,
      description: 'A long description that repeats, as listings do. '.repeat(4),
    });
  }
});

const get = (url: string, encoding?: string) =>
  t.request({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('compressed answers', () => {
  it('sends API JSON with Brotli or gzip as the browser accepts, the same JSON once decoded', async () => {
    const plain = await get('/api/items?campus=all&limit=12');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.json();
    expect(json.items).toHaveLength(12);

    const br = await get('/api/items?campus=all&limit=12', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(json);

    // A browser that takes both gets gzip: the same size for a list, half the time (json-answers.ts).
    const gzip = await get('/api/items?campus=all&limit=12', 'gzip, deflate, br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(json);
  });

  it('sends an item page and a profile compressed too, the same JSON once decoded', async () => {
    const lender = await createUser(t.database.db);
    const { id } = await createItem(t.database.db, {
      userId: lender.id,
      title: 'Compressible tent',
      description: 'Sleeps four, with its poles, pegs and a rain fly. '.repeat(30),
    });
    for (const url of [`/api/items/${id}`, `/api/users/${lender.id}`]) {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      const br = await get(url, 'br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    }
  });

  it('sends a small answer as it is', async () => {
    const response = await get('/api/health', 'br');
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses a photo again', async () => {
    const response = await get('/uploads/items/photo.jpg', 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(PHOTO)).toBe(true);
  });

  it('sends the service worker whole, with the headers that keep updates working', async () => {
    const response = await get('/sw.js', 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['service-worker-allowed']).toBe('/');
    // Compressed per request, gzip first when the browser takes both (json-answers.ts, decision 075).
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(WORKER);
    const brotliOnly = await get('/sw.js', 'br');
    expect(brotliOnly.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotliOnly.rawPayload).toString()).toBe(WORKER);
  });
});
