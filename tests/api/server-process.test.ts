import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freePort,
  RUN_SOURCES,
  type ServerProcess,
  STAGING_ALLOWANCES,
  startServer,
  stopServer,
} from '../helpers/server-process.ts';

// The real entry point (src/server/main.ts) as `npm start` runs it: start, refuse bad settings,
// and stop gracefully.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-process-'));
const sharedDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-shared-'));
afterAll(() => {
  for (const dir of [dataDir, sharedDir]) rmSync(dir, { recursive: true, force: true });
});

/**
 * main.ts run to its end (a server that refuses to start), with everything it printed; one still
 * running after `timeoutMs` (it started after all) is stopped and answers code null.
 */
async function runToExit(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...RUN_SOURCES, 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      ...STAGING_ALLOWANCES,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

async function register(server: ServerProcess, username: string) {
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({
      fullName: 'Lock Test',
      username,
      email: `${username}@stanford.edu`,
      campus: 'stanford.edu',
      password: 'one-process',
    }),
  });
  return response.status;
}

async function signIn(server: ServerProcess, username: string) {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email: `${username}@stanford.edu`, password: 'one-process' }),
  });
  return response.status;
}

describe('the server process', () => {
  it('refuses to start on a bad setting, naming it', () => {
    const result = spawnSync(process.execPath, [...RUN_SOURCES, 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CampusLoop cannot start');
    expect(result.stderr).toContain('PORT: must be a port number');
  });

  it('refuses to start in production on the defaults, listing every reason and its allowance', () => {
    const result = spawnSync(process.execPath, [...RUN_SOURCES, 'src/server/main.ts'], {
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CampusLoop cannot start. Invalid configuration:');
    for (const [setting, allowance] of [
      ['STRIPE_SECRET_KEY', 'ALLOW_TEST_PAYMENTS'],
      ['SEED_DEMO', 'ALLOW_DEMO_SEED'],
      ['SMTP_URL', 'ALLOW_FILE_MAIL'],
      ['APP_URL', 'ALLOW_LOCALHOST_LINKS'],
      ['COOKIE_SECURE', 'ALLOW_INSECURE_COOKIES'],
    ]) {
      expect(result.stderr).toMatch(new RegExp(`- ${setting}: .*${allowance}=true on a staging box`));
    }
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
    expect((await response).status).toBe(202);
    expect(await exit).toBe(0);

    // The embedded database was closed properly: it opens again with everything in it.
    const second = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' }, 90_000);
    const login = await fetch(`${second.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ email: 'late.request@stanford.edu', password: 'in-flight' }),
    });
    // The account is there, waiting for its e-mail's link (an unknown one would be a 401).
    expect(login.status).toBe(403);
    expect((await login.json()).code).toBe('EMAIL_NOT_VERIFIED');
    expect(second.output()).toContain('Demo accounts (loaded on first start)');
    expect(await stopServer(second.process)).toBe(0);
  }, 200_000);

  it('refuses a second server on the same DATA_DIR, naming it, and the first keeps every write', async () => {
    const env = { DATA_DIR: sharedDir, SEED_DEMO: 'false' };
    const first = await startServer(env, 90_000);
    expect(await register(first, 'before_second')).toBe(202);

    const second = await runToExit(env);
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `CampusLoop cannot start. Another CampusLoop process is using the embedded database in ${sharedDir}.`,
    );

    // The first went on undisturbed, and everything it acknowledged is there after a restart.
    expect(await register(first, 'after_second')).toBe(202);
    expect(await stopServer(first.process)).toBe(0);
    const again = await startServer(env, 90_000);
    // Both accounts are there, waiting for their links (403 EMAIL_NOT_VERIFIED; an unknown one is 401).
    expect(await signIn(again, 'before_second')).toBe(403);
    expect(await signIn(again, 'after_second')).toBe(403);
    expect(await signIn(again, 'never_registered')).toBe(401);

    // A process that crashes cannot release its lock; a restart takes over the stale lock.
    again.process.kill('SIGKILL');
    await new Promise((resolve) => again.process.once('exit', resolve));
    const restarted = await startServer(env, 90_000);
    expect(await signIn(restarted, 'after_second')).toBe(403);
    expect(await stopServer(restarted.process)).toBe(0);
  }, 360_000);
});
