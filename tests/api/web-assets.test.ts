import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The built web app's scripts are sent pre-compressed (the build writes .br and .gz copies):
// the smallest copy the browser accepts, with the year-long cache of hashed assets, and the plain file
// to a client that accepts neither.

const t = setupTestApp();
const webDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-web-'));
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

describe('built assets', () => {
  it('sends Brotli, then gzip, then the plain file, as the browser accepts', async () => {
    const script = `console.log(${JSON.stringify('CampusLoop '.repeat(500))});`;
    mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), script);
    writeFileSync(path.join(webDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(webDir, 'assets', 'app-abc123.js.gz'), gzipSync(script));
    const app = await buildApp({ config: testConfig({ webDir }), database: t.database, logger: false });
    try {
      const get = (encoding?: string) =>
        app.inject({
          method: 'GET',
          url: '/assets/app-abc123.js',
          headers: encoding ? { 'accept-encoding': encoding } : {},
        });
      const br = await get('gzip, deflate, br');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.rawPayload.length).toBeLessThan(script.length / 5);
      const gz = await get('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await get();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
    } finally {
      await app.close();
    }
  });
});
