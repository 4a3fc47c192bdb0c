import { describe, expect, it } from 'vitest';
import { openPglite, PGLITE_SHARED_BUFFERS } from './client.ts';

// The embedded database's buffer pool is allocated whole inside PGlite's WebAssembly memory, which
// never shrinks; PostgreSQL's default of 128MB was most of an idle server's memory (decision 040).

describe('the embedded database', () => {
  it('runs with a small buffer pool', async () => {
    const database = await openPglite();
    try {
      const result = await database.pglite!.query<{ shared_buffers: string }>('show shared_buffers');
      expect(result.rows[0]?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
      expect(PGLITE_SHARED_BUFFERS).toBe('16MB');
      // The WebAssembly memory it lives in: PGlite's initial 128 MB, not grown past it as with 128MB
      // of buffers (188 MB then).
      expect(await database.pglite!.wasmMemoryBytes()).toBeLessThanOrEqual(128 * 1024 * 1024);
    } finally {
      await database.close();
    }
  }, 120_000);
});
