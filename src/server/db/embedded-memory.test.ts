import { describe, expect, it } from 'vitest';
import { EMBEDDED_BUFFER_POOL_MB } from '../config-environment.ts';
import { openPglite } from './client.ts';

// The embedded database's buffer pool is allocated whole inside PGlite's WebAssembly memory, which
// never shrinks; PostgreSQL's default of 128MB was most of an idle server's memory (decision 040), and
// 16MB sent a campus's uncached reads back to the file system for their pages (decision 095).

const showBuffers = async (database: Awaited<ReturnType<typeof openPglite>>) =>
  (await database.pglite!.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]?.shared_buffers;

describe('the embedded database', () => {
  it("runs with the buffer pool it is given, inside PGlite's first WebAssembly memory", async () => {
    const database = await openPglite();
    try {
      expect(EMBEDDED_BUFFER_POOL_MB).toBe(32);
      expect(await showBuffers(database)).toBe('32MB');
      // The WebAssembly memory it lives in: PGlite's initial 128 MB, not grown past it as with 128MB
      // of buffers (188 MB then).
      expect(await database.pglite!.wasmMemoryBytes()).toBeLessThanOrEqual(128 * 1024 * 1024);
    } finally {
      await database.close();
    }
    const small = await openPglite(undefined, undefined, { bufferPoolMb: 16 });
    try {
      expect(await showBuffers(small)).toBe('16MB');
    } finally {
      await small.close();
    }
  }, 120_000);
});
