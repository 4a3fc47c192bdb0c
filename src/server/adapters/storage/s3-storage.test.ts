import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from './s3-storage.ts';

// A fake S3-compatible service on loopback: it records what the adapter sends, as MinIO or R2 would receive it.

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server;
let endpoint: string;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({
      method: request.method ?? '',
      // The SDK adds `?x-id=PutObject`; the object's path is what matters.
      url: new URL(request.url ?? '/', 'http://s3.local').pathname,
      headers: request.headers,
      body: Buffer.concat(chunks),
    });
    if (request.method === 'PUT') {
      response.writeHead(200, { etag: '"fake-etag"' }).end();
    } else {
      response.writeHead(204).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function storage() {
  return new S3Storage({
    bucket: 'campus-photos',
    region: 'auto',
    endpoint,
    forcePathStyle: true,
    publicUrl: 'https://photos.campusloop.test',
    credentials: { accessKeyId: 'test-key', secretAccessKey: 'test-secret' },
  });
}

describe('S3Storage', () => {
  it('puts the object with its type and a year-long immutable cache, and answers the public URL', async () => {
    received.length = 0;
    const s3 = storage();
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    const url = await s3.put('items/2026/05/0b6c5a8e-photo.jpg', bytes, 'image/jpeg');
    await s3.destroy();

    expect(url).toBe('https://photos.campusloop.test/items/2026/05/0b6c5a8e-photo.jpg');
    expect(received).toHaveLength(1);
    const [put] = received;
    expect(put).toMatchObject({ method: 'PUT', url: '/campus-photos/items/2026/05/0b6c5a8e-photo.jpg' });
    expect(put!.body.equals(bytes)).toBe(true);
    expect(put!.headers['content-type']).toBe('image/jpeg');
    expect(put!.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Signed with the configured key.
    expect(put!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-key\/\d{8}\/auto\/s3\//);
  });

  it('deletes by key', async () => {
    received.length = 0;
    const s3 = storage();
    await s3.delete('items/2026/05/0b6c5a8e-photo-thumb.jpg');
    await s3.destroy();
    expect(received).toEqual([
      expect.objectContaining({
        method: 'DELETE',
        url: '/campus-photos/items/2026/05/0b6c5a8e-photo-thumb.jpg',
      }),
    ]);
  });

  it('builds URLs from the public base without touching the network', () => {
    expect(storage().urlFor('items/2026/05/a.jpg')).toBe(
      'https://photos.campusloop.test/items/2026/05/a.jpg',
    );
  });

  it('knows its own photo URLs: under its public base, an item photo key', () => {
    const s3 = storage();
    expect(s3.ownsPhotoUrl('https://photos.campusloop.test/items/2026/05/a.jpg')).toBe(true);
    for (const foreign of [
      'https://photos.campusloop.test.evil.example/items/2026/05/a.jpg',
      'https://photos.campusloop.test/items/../private/a.jpg',
      'https://photos.campusloop.test/items/2026/05/a.jpg?track=1',
      'http://photos.campusloop.test/items/2026/05/a.jpg',
      '/uploads/items/2026/05/a.jpg',
    ]) {
      expect(s3.ownsPhotoUrl(foreign), foreign).toBe(false);
    }
  });
});
