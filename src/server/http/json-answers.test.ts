import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonAnswer } from '../cache/read-caches.ts';
import compression, { GZIP_LEVEL } from './compression.ts';
import { ownBytes, rememberedBytes, sendJson } from './json-answers.ts';

// A remembered answer goes to many readers: compressed once per encoding, however many ask for it.

const compressions = vi.hoisted(() => ({ br: 0, gzip: 0, failNext: false }));
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  const failing = () => {
    if (!compressions.failNext) return false;
    compressions.failNext = false;
    return true;
  };
  return {
    ...zlib,
    brotliCompressSync: (...args: Parameters<typeof zlib.brotliCompressSync>) => {
      compressions.br++;
      if (failing()) throw new Error('out of memory');
      return zlib.brotliCompressSync(...args);
    },
    brotliCompress: (...args: Parameters<typeof zlib.brotliCompress>) => {
      compressions.br++;
      if (failing()) {
        const done = args[args.length - 1] as (error: Error | null) => void;
        return void setImmediate(() => done(new Error('out of memory')));
      }
      return zlib.brotliCompress(...args);
    },
    gzipSync: (...args: Parameters<typeof zlib.gzipSync>) => {
      compressions.gzip++;
      return zlib.gzipSync(...args);
    },
    gzip: (...args: Parameters<typeof zlib.gzip>) => {
      compressions.gzip++;
      return zlib.gzip(...args);
    },
  };
});

const list: JsonAnswer = {
  json: JSON.stringify({
    items: Array.from({ length: 12 }, (_, i) => ({
      id: i,
      title: `Desk lamp ${i}`,
      description: 'Brass, warm light, a long cord.'.repeat(3),
    })),
  }),
};
const small: JsonAnswer = { json: '{"count":3}' };
/** A profile with hundreds of items and reviews: compressed in the thread pool. */
const big: JsonAnswer = {
  json: JSON.stringify({
    reviews: Array.from({ length: 8000 }, (_, i) => ({ id: i, text: `Great lamp ${i}, lent on time.` })),
  }),
};
let answer: JsonAnswer = list;

const app = Fastify();
beforeAll(async () => {
  await app.register(compression);
  app.get('/remembered', (request, reply) => sendJson(request, reply, answer));
  app.get('/made', (_request, reply) => reply.type('application/json').send(list.json));
  app.get('/varied', (request, reply) => sendJson(request, reply.header('vary', 'Accept-Language'), answer));
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => {
  compressions.br = 0;
  compressions.gzip = 0;
  answer = { json: list.json };
});

const get = (encoding?: string, url = '/remembered') =>
  app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

describe('sendJson', () => {
  it('compresses a remembered answer once per encoding, whoever asks for it', async () => {
    const first = await get('br');
    const again = await Promise.all([get('br'), get('gzip;q=0.5, br')]);
    expect(first.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(first.rawPayload).toString())).toEqual(JSON.parse(list.json));
    for (const response of again) expect(response.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(compressions.br).toBe(1);

    const gzipped = await get('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(list.json);
    await get('gzip');
    expect(compressions.gzip).toBe(1);
    // A new answer (the old one forgotten) is compressed anew.
    answer = { json: list.json };
    await get('br');
    expect(compressions.br).toBe(2);
  });

  it('gzips at the level chosen for answers made per request, not at the default', async () => {
    const gzipped = await get('gzip');
    expect(GZIP_LEVEL).toBe(3);
    expect(gzipped.rawPayload.equals(gzipSync(list.json, { level: GZIP_LEVEL }))).toBe(true);
    expect(gzipped.rawPayload.equals(gzipSync(list.json))).toBe(false);
    // The compression plugin's answers too (an answer sent as an object, not remembered).
    const plugin = await app.inject({ method: 'GET', url: '/made', headers: { 'accept-encoding': 'gzip' } });
    expect(plugin.headers['content-encoding']).toBe('gzip');
    expect(plugin.rawPayload.equals(gzipSync(list.json, { level: GZIP_LEVEL }))).toBe(true);
  });

  it('sends gzip to a browser that takes gzip and Brotli alike: the same size, half the time', async () => {
    for (const encoding of ['gzip, deflate, br', 'br, gzip', '*']) {
      expect((await get(encoding)).headers['content-encoding']).toBe('gzip');
    }
    expect((await get('gzip;q=0.8, br')).headers['content-encoding']).toBe('br');
  });

  it('sends the text as it is to a browser that accepts no compression, or refuses it', async () => {
    for (const encoding of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const response = await get(encoding);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe(list.json);
    }
    expect((await get('br;q=0, gzip')).headers['content-encoding']).toBe('gzip');
    expect(compressions.br).toBe(0);
  });

  it('says the answer varies with Accept-Encoding, keeping what else it varies with', async () => {
    expect((await get('br')).headers.vary).toBe('Accept-Encoding');
    expect((await get('br', '/varied')).headers.vary).toBe('Accept-Language, Accept-Encoding');
  });

  it('sends a small answer as text', async () => {
    answer = small;
    const response = await get('br');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(small.json);
    expect(compressions.br).toBe(0);
  });

  it('compresses a big answer in the thread pool, once', async () => {
    expect(big.json.length).toBeGreaterThan(256 * 1024);
    answer = big;
    const [first, second] = await Promise.all([get('br'), get('br')]);
    expect(brotliDecompressSync(first!.rawPayload).toString()).toBe(big.json);
    expect(second!.rawPayload.equals(first!.rawPayload)).toBe(true);
    expect(compressions.br).toBe(1);
  });

  it('remembers each compressed answer in memory of its own size, in place or in the thread pool', async () => {
    // zlib answers a view of its 16 KB chunk: kept as it is, a list's 300 bytes would hold 16 KB.
    for (const [which, encoding] of [
      [list, 'gzip'],
      [list, 'br'],
      [big, 'gzip'],
      [big, 'br'],
    ] as const) {
      answer = { json: which.json };
      const sent = await get(encoding);
      const kept = await rememberedBytes(answer, encoding);
      expect(kept?.equals(sent.rawPayload)).toBe(true);
      expect(kept!.buffer.byteLength).toBe(kept!.length);
    }
    // What is its own already is not copied.
    const own = Buffer.allocUnsafeSlow(5).fill(1);
    expect(ownBytes(own)).toBe(own);
    const view = Buffer.alloc(64).subarray(8, 16);
    expect(ownBytes(view).buffer.byteLength).toBe(8);
    expect(ownBytes(view).equals(view)).toBe(true);
  });

  it.each([
    ['a list, compressed in place', () => list],
    ['a big answer, compressed in the thread pool', () => big],
  ])('sends %s as text when compression fails, and tries again for the next reader', async (_, which) => {
    answer = { json: which().json };
    compressions.failNext = true;
    const failed = await get('br');
    // Compressed for this reader alone by the compression plugin, as any other answer.
    expect(failed.statusCode).toBe(200);
    expect(brotliDecompressSync(failed.rawPayload).toString()).toBe(answer.json);
    const next = await get('br');
    expect(next.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(next.rawPayload).toString()).toBe(answer.json);
    expect(compressions.br).toBe(2);
  });
});
