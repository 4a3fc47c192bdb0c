import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../helpers/database-setup.ts';
import { mailsTo, tokenOf, verificationLinkIn } from '../helpers/outbox.ts';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process.ts';

// What ships runs on what a production install has (decision 017): a clean folder holding only
// the built dist/ and the package files, `npm ci --omit=dev` into it, and the bundle started with plain
// node, on the embedded database and on PostgreSQL. A devDependency the server needed at run time (as
// date-fns once was), a run-time file the bundle cannot find (the migrations, the university directory),
// or a native package that does not load (PGlite's WebAssembly, argon2, sharp, pg) fails here.
//
// The folder is under the system's temp directory, which has no node_modules above it, and the server's
// environment is a shell's (PATH and HOME), not vitest's: nothing can be borrowed from the project.

const appDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-bundle-'));
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** PostgreSQL's half uses the suite's server when it has one, else the local default. */
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = `${inject('testDatabasePrefix') || 'campusloop_test_'}bundle_${randomBytes(6).toString('hex')}`;
let databaseMade = false;

/** A shell's environment: no NODE_OPTIONS, no vitest's or npm's variables. */
const shellEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TZ: 'America/Los_Angeles',
};

/** Runs a command to its end; answers what it printed, or throws with it. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

async function postgresProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function post(server: ServerProcess, route: string, body: unknown, cookie?: string) {
  return fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('cl_session='));
  expect(cookie, 'the answer sets the session cookie').toBeDefined();
  return cookie!.split(';')[0]!;
}

async function signedInAs(server: ServerProcess, cookie: string): Promise<string | undefined> {
  const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie } });
  expect(me.status).toBe(200);
  return ((await me.json()) as { user: { email: string } | null }).user?.email;
}

/** The production server from the clean folder, on plain node, with a DATA_DIR of its own. */
function startBundle(dataDir: string, env: Record<string, string>) {
  return startServer({ DATA_DIR: path.join(appDir, dataDir), ...env }, 150_000, {
    entry: 'bundle',
    cwd: appDir,
    baseEnv: shellEnv,
  });
}

beforeAll(async () => {
  // The app as `npm start` would run it: the project's dist when it is current (the same check), else a
  // build of the sources straight into the folder, never over the dist other tests and servers read.
  const current = spawnSync(process.execPath, ['scripts/build.mjs', '--check']).status === 0;
  if (current) cpSync('dist', path.join(appDir, 'dist'), { recursive: true });
  else await run(process.execPath, ['scripts/build.mjs', '--out-dir', path.join(appDir, 'dist')]);
  for (const file of ['package.json', 'package-lock.json']) cpSync(file, path.join(appDir, file));
  // Exactly the lockfile's production packages (from npm's cache when it has them).
  await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: appDir,
    env: shellEnv,
  });
}, 240_000);

afterAll(async () => {
  if (databaseMade) await admin(`drop database if exists ${databaseName} with (force)`);
  rmSync(appDir, { recursive: true, force: true });
});

describe('the production bundle with production dependencies only', () => {
  it('has every dependency and no dev dependency to lean on', () => {
    const installed = (name: string) => existsSync(path.join(appDir, 'node_modules', name, 'package.json'));
    expect(Object.keys(pkg.dependencies).filter((name) => !installed(name))).toEqual([]);
    // Type declarations some dependencies list as their own dependencies hold no code.
    const devInstalled = Object.keys(pkg.devDependencies).filter(
      (name) => installed(name) && !name.startsWith('@types/'),
    );
    expect(devInstalled).toEqual([]);
    for (const tool of ['tsx', 'esbuild', 'vite', 'typescript', 'react'])
      expect(installed(tool), tool).toBe(false);
  });

  it.concurrent('runs on the embedded database: demo campus, sign-in, a photo, a pre-rendered page, a clean stop', async () => {
    const server = await startBundle('data', { SEED_DEMO: 'true' });
    try {
      // The demo campus's photos (drawn with sharp from icon shapes in the bundle) and accounts.
      expect(server.output()).toContain('Demo data loaded');
      const login = await post(server, '/api/auth/login', {
        email: 'maya.chen@stanford.edu',
        password: 'campusloop',
      });
      expect(login.status).toBe(200);
      const cookie = sessionCookie(login);
      expect(await signedInAs(server, cookie)).toBe('maya.chen@stanford.edu');

      // A photo through the upload pipeline: sharp and file-type from the production install.
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2f855a' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('images', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'mug.png');
      const upload = await fetch(`${server.url}/api/upload/proxy`, {
        method: 'POST',
        headers: { cookie, origin: server.url },
        body: form,
      });
      expect(upload.status).toBe(200);
      const { urls } = (await upload.json()) as { urls: string[] };
      expect((await fetch(`${server.url}${urls[0]}`)).headers.get('content-type')).toBe('image/jpeg');

      // Home for a visitor, pre-rendered by the web app's server entry in dist/server.
      const home = await fetch(`${server.url}/`);
      expect(home.status).toBe(200);
      // The server's log says why when the page came back as the bare shell.
      expect(await home.text(), server.output()).toContain('id="cl-query-state"');
    } finally {
      expect(await stopServer(server.process)).toBe(0);
    }
  }, 180_000);

  it.concurrent('runs on PostgreSQL: migrates an empty database, registers, signs in, stops cleanly', async (ctx) => {
    const problem = await postgresProblem();
    if (problem) ctx.skip(`PostgreSQL is not reachable at ${postgresUrl} (${problem})`);
    await admin(`create database ${databaseName}`);
    databaseMade = true;
    const server = await startBundle('data-postgres', {
      DATABASE_URL: withDatabase(postgresUrl, databaseName),
    });
    try {
      const username = `bundle_${randomBytes(4).toString('hex')}`;
      const email = `${username}@stanford.edu`;
      const register = await post(server, '/api/auth/register', {
        fullName: 'Bundle Check',
        username,
        email,
        campus: 'stanford.edu',
        password: 'production-only',
      });
      // Registering answers 'check your inbox'; the e-mail's link signs in (decision 023).
      expect(register.status).toBe(202);
      const [mail] = await mailsTo(path.join(appDir, 'data-postgres', 'outbox'), email, 0, 30_000);
      expect(mail, 'the verification e-mail in the outbox').toBeDefined();
      const verified = await post(server, '/api/auth/verify-email', {
        token: tokenOf(verificationLinkIn(mail!)),
      });
      expect(verified.status).toBe(200);
      expect(await signedInAs(server, sessionCookie(verified))).toBe(email);

      const login = await post(server, '/api/auth/login', { email, password: 'production-only' });
      expect(login.status).toBe(200);
      expect(await signedInAs(server, sessionCookie(login))).toBe(email);
    } finally {
      expect(await stopServer(server.process)).toBe(0);
    }
  }, 180_000);
});
