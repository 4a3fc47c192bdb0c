import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/server-process.ts';

// `npm start`, `npm run serve` and `npm run dev` as a process manager or a container runtime runs
// them: it signals the npm process and expects everything npm started to stop. npm runs a script
// through `sh -c`; sh used to stay the parent of the server, npm's SIGTERM ended sh, and the server
// (for dev, eight processes) ran on with nobody left to stop it.

const root = path.resolve(import.meta.dirname, '../..');
/** `npm start` and `npm run serve` run from a folder holding the built app, as an image has it. */
const appDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-npm-'));
const dataDirs: string[] = [];

/** A shell's environment: no NODE_ENV=test or npm's variables from vitest's own run. */
const shellEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC' };

beforeAll(() => {
  // The launcher and the build check first: the build's files must be newer than every input the
  // check looks at (package.json, scripts/build.mjs), or `npm start` would build again.
  mkdirSync(path.join(appDir, 'scripts'));
  for (const file of ['package.json', 'scripts/start.mjs', 'scripts/build.mjs']) {
    cpSync(path.join(root, file), path.join(appDir, file));
  }
  // The project's dist when it is current, else a build of the sources straight into the folder
  // (never over the dist other tests read).
  const current = spawnSync(process.execPath, ['scripts/build.mjs', '--check'], { cwd: root }).status === 0;
  if (current) cpSync(path.join(root, 'dist'), path.join(appDir, 'dist'), { recursive: true });
  else {
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--out-dir', path.join(appDir, 'dist')], {
      cwd: root,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`the build failed:\n${built.stdout}${built.stderr}`);
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(appDir, 'node_modules'));
}, 300_000);

afterAll(() => {
  for (const dir of [appDir, ...dataDirs]) rmSync(dir, { recursive: true, force: true });
});

/** Every process descended from `pid` (Linux's /proc), children before grandchildren. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // it ended meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie has exited; only its parent's wait is missing.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function answers(url: string) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

interface Run {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npmRun(script: string, cwd: string, env: NodeJS.ProcessEnv): Run {
  const npm = spawn('npm', ['run', '--silent', script], {
    cwd,
    env: { ...shellEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (d) => {
    output += d;
  });
  npm.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  return { npm, output: () => output, exited };
}

function dataDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-npm-data-'));
  dataDirs.push(dir);
  return dir;
}

/** Signals npm's own process, then: npm exits, every process it started is gone, the ports are closed. */
async function stopsEverything(run: Run, signal: NodeJS.Signals, ports: number[]) {
  const tree = descendants(run.npm.pid!);
  // npm, sh (now the launcher, through exec) and at least the server.
  expect(tree.length).toBeGreaterThan(0);
  run.npm.kill(signal);
  await run.exited;
  await until(() => tree.every((pid) => !alive(pid)), 30_000, 'every process npm started to end').catch(
    () => {
      const left = tree.filter(alive).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      // Nothing of a failed run stays behind on the machine.
      for (const pid of tree.filter(alive)) process.kill(pid, 'SIGKILL');
      expect(left, run.output()).toEqual([]);
    },
  );
  for (const port of ports) expect(await portOpen(port)).toBe(false);
}

describe.each(['SIGTERM', 'SIGINT'] as const)('npm scripts on %s to npm', (signal) => {
  it.each(['start', 'serve'])(
    `npm run %s stops the server gracefully on ${signal}`,
    async (script) => {
      const port = await freePort();
      const run = npmRun(script, appDir, {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir(),
        SEED_DEMO: 'false',
      });
      await until(() => answers(`http://127.0.0.1:${port}/api/health`), 120_000, 'the server').catch(() => {
        throw new Error(`the server did not start:\n${run.output()}`);
      });
      await stopsEverything(run, signal, [port]);
      // The server's own graceful shutdown ran (src/server/main.ts), not a kill.
      expect(run.output()).toContain(`${signal} received`);
      expect(await run.exited).toBe(0);
    },
    180_000,
  );

  it(`npm run dev stops the API and Vite on ${signal}`, async () => {
    const [webPort, apiPort] = [await freePort(), await freePort()];
    const run = npmRun('dev', root, {
      PORT: String(webPort),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir(),
      SEED_DEMO: 'false',
    });
    await until(
      async () => (await answers(`http://127.0.0.1:${apiPort}/api/health`)) && (await portOpen(webPort)),
      150_000,
      'the API and Vite',
    ).catch(() => {
      throw new Error(`npm run dev did not start:\n${run.output()}`);
    });
    // The API's banner names the page to open: Vite's.
    expect(run.output()).toContain(`CampusLoop is running on http://localhost:${webPort}`);
    await stopsEverything(run, signal, [webPort, apiPort]);
    // The API stopped gracefully too (scripts/dev.ts passes either signal on as SIGTERM).
    expect(run.output()).toContain('SIGTERM received: finishing in-flight requests');
  }, 240_000);
});
