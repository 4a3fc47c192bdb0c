import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The installable app's files as the server sends them: the service worker and the manifest
// asked for afresh at every check (a deploy is seen at the next visit), with the types browsers
// require, the worker allowed the whole app as its scope, and a CSP that lets both load from here
// only. The browser journey tests/e2e/installable.spec.ts installs and uses the real build.

const t = setupTestApp();
const webDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-pwa-web-'));
let app: App;

beforeAll(async () => {
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  mkdirSync(path.join(webDir, 'icons'), { recursive: true });
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(webDir, 'manifest.webmanifest'), JSON.stringify({ name: 'CampusLoop' }));
  writeFileSync(path.join(webDir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1);');
  app = await buildApp({ config: testConfig({ webDir }), database: t.database, logger: false });
});
afterAll(async () => {
  await app?.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe('the installable app’s files', () => {
  it('serves the service worker as script, never cached without asking, with the whole app as scope', async () => {
    const response = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['service-worker-allowed']).toBe('/');
    expect(response.headers.etag).toBeDefined();
    // Revalidation is cheap: an unchanged worker is a 304.
    const again = await app.inject({
      method: 'GET',
      url: '/sw.js',
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves the manifest as application/manifest+json, never cached without asking', async () => {
    const response = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({ name: 'CampusLoop' });
  });

  it('keeps the other files’ caching: hashed assets for a year, icons for an hour', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ method: 'GET', url: '/icons/icon-192.png' });
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('lets pages load the worker and the manifest from this origin only', async () => {
    const page = await app.inject({ method: 'GET', url: '/reservations' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // The worker's own script is held to the same policy.
    const worker = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.headers['content-security-policy']).toBe(csp);
  });

  it('sends the API’s private answers with no-store, so no cache (nor the worker) keeps them', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/reservations' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});
