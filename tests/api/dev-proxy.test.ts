import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// `npm run dev` as the browser meets it: the API listening on its own port, Vite's dev server with the
// project's own vite.config.ts in front, every request sent to Vite. Vite's proxy used to rewrite the
// Host header to the API's address while the browser's Origin stayed Vite's, and the same-origin rule
// refused every sign-in with 403 CROSS_ORIGIN. Recorded from a real `npm run dev` and Chromium, the
// sign-in arrived at the API as `host: 127.0.0.1:5001`, `origin: http://localhost:5000`.

const t = setupTestApp();
let vite: ViteDevServer;
/** Vite's address, as the browser sees it (`npm run dev` prints http://localhost:5000/). */
let web = '';

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The config reads API_PORT when it loads, as under scripts/dev.ts.
  const previous = process.env.API_PORT;
  process.env.API_PORT = String((t.app.server.address() as { port: number }).port);
  try {
    vite = await createServer({
      configFile: 'vite.config.ts',
      logLevel: 'silent',
      // Only the proxy is under test: no file watching, no dependency pre-bundling, any free port.
      server: { port: 0, host: '127.0.0.1', watch: null, hmr: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
  } finally {
    if (previous === undefined) delete process.env.API_PORT;
    else process.env.API_PORT = previous;
  }
  await vite.listen();
  web = `http://localhost:${(vite.httpServer!.address() as { port: number }).port}`;
});

afterAll(async () => {
  await vite?.close();
});

/** A request as Chromium sends it from a page of the dev server (same-origin fetch). */
function fromPage(path: string, init: RequestInit & { origin?: string; cookie?: string } = {}) {
  const { origin = web, cookie, ...rest } = init;
  return fetch(`${web}${path}`, {
    ...rest,
    headers: {
      'content-type': 'application/json',
      origin,
      'sec-fetch-site': 'same-origin',
      ...(cookie ? { cookie } : {}),
    },
  });
}

describe('the dev server in front of the API (npm run dev)', () => {
  it('signs a student in through the proxy, and the session works for the next requests', async () => {
    const student = await createUser(t.database.db);
    const login = await fromPage('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email: student.email, password: student.password }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;

    const me = await fromPage('/api/auth/me', { cookie });
    expect(await me.json()).toMatchObject({ user: { id: student.id } });

    // The live connection goes through the same proxy and is authenticated by the same cookie.
    const socket = new WebSocket(`${web.replace('http', 'ws')}/ws`, { headers: { cookie, origin: web } });
    const closed = new Promise<number>((resolve) => socket.on('close', resolve));
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', reject);
    });
    // Refused sockets are opened and then closed at once by the server; this one stays open.
    const early = await Promise.race([closed, new Promise((r) => setTimeout(() => r('open'), 300))]);
    expect(early).toBe('open');
    socket.close();

    const logout = await fromPage('/api/auth/logout', { method: 'POST', body: '{}', cookie });
    expect(logout.status).toBe(200);
  });

  it('still refuses a change asked for by another site through the proxy', async () => {
    const response = await fromPage('/api/auth/logout', {
      method: 'POST',
      body: '{}',
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'CROSS_ORIGIN' });
  });
});
