import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, stopServer } from '../helpers/server-process.ts';

// The real entry point (src/server/main.ts) as `npm start` runs it: start, refuse bad settings,
// and stop gracefully.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the server process', () => {
  it('refuses to start on a bad setting, naming it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CampusLoop cannot start');
    expect(result.stderr).toContain('PORT: must be a port number');
  });

  it('finishes in-flight requests on SIGTERM, closes the database cleanly, and starts again on it', async () => {
    const first = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' }, 90_000);
    expect(first.output()).toContain('maya.chen@stanford.edu');
    // A request whose headers have reached the server but whose body is still on its way when SIGTERM
    // arrives: it must still be answered in full.
    const body = JSON.stringify({
      fullName: 'Late Request',
      username: 'late_request',
      email: 'late.request@stanford.edu',
      campus: 'stanford.edu',
      password: 'in-flight',
    });
    const { port } = new URL(first.url);
    let exit: Promise<number | null> = Promise.resolve(null);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/auth/register',
          agent: false,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            origin: first.url,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      request.on('error', reject);
      request.write(body.slice(0, 20));
      setTimeout(() => {
        exit = stopServer(first.process);
        setTimeout(() => request.end(body.slice(20)), 300);
      }, 300);
    });
    expect((await response).status).toBe(201);
    expect(await exit).toBe(0);

    // The embedded database was closed properly: it opens again with everything in it.
    const second = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' }, 90_000);
    const login = await fetch(`${second.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ email: 'late.request@stanford.edu', password: 'in-flight' }),
    });
    expect(login.status).toBe(200);
    expect(second.output()).toContain('Demo accounts (loaded on first start)');
    expect(await stopServer(second.process)).toBe(0);
  }, 200_000);
});
