import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Server processes under test: the production server (dist/server/main.js, as `npm start` starts it)
// and the bare-Fastify baseline, each in its own process, with the time from spawn to its first answer
// and its resident memory read from /proc.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first answered request. */
  startMs: number;
  /** Resident memory in MB, or null when /proc is not there. */
  rssMb(): number | null;
  output(): string;
  stop(): Promise<number | null>;
}

export function rssMbOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** A quoted shell word. */
const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

async function start(
  script: string,
  env: Record<string, string>,
  options: { port: number; readyPath: string; timeoutMs: number; nodeFlags?: string[] },
): Promise<RunningServer> {
  let output = '';
  const started = performance.now();
  const node = [process.execPath, ...(options.nodeFlags ?? [])];
  // The app as `npm start` runs it: the build's staleness check, then the bundled server on plain node
  // (exec: the measured process is the server itself). Anything else (the baseline) through tsx.
  const [command, args] = script.endsWith('.js')
    ? [
        '/bin/sh',
        [
          '-c',
          `${shellWord(process.execPath)} scripts/build.mjs --if-stale && exec ${[...node, script].map(shellWord).join(' ')}`,
        ],
      ]
    : [
        process.execPath,
        [
          ...(options.nodeFlags ?? []),
          '--import',
          './scripts/lingui-register.mjs',
          '--import',
          'tsx',
          script,
        ],
      ];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(options.port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    output = (output + d).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + options.timeoutMs;
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}${options.readyPath}`);
      await response.arrayBuffer();
      if (response.ok) {
        return {
          url,
          pid: child.pid!,
          startMs: Math.round(performance.now() - started),
          rssMb: () => rssMbOf(child.pid!),
          output: () => output,
          stop,
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  throw new Error(`${script} did not answer ${options.readyPath} within ${options.timeoutMs} ms:\n${output}`);
}

/** The request that counts as "answered" for a cold start: the home page's list of items. */
export const COLD_START_PATH = '/api/items?campus=all&availableNow=true&page=1&limit=8';

export function startApp(options: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** Write a V8 CPU profile of the server into this folder when it stops. */
  cpuProfileDir?: string;
  /** Every read cache off (READ_CACHE_SECONDS=0): what the database path alone does. */
  cachesOff?: boolean;
  /** The demo campus loaded into the (embedded, empty) database at start, as `npm start` does. */
  seedDemo?: boolean;
  /** More settings for one scenario's server (saved searches turn the job worker on). */
  env?: Record<string, string>;
}): Promise<RunningServer> {
  return start(
    'dist/server/main.js',
    {
      NODE_ENV: 'production',
      // A benchmark box is a staging box: test payments, mail to files, plain http on 127.0.0.1
      // (production refuses each unless allowed, config.ts).
      ALLOW_TEST_PAYMENTS: 'true',
      ALLOW_FILE_MAIL: 'true',
      ALLOW_LOCALHOST_LINKS: 'true',
      ALLOW_INSECURE_COOKIES: 'true',
      LOG_LEVEL: 'warn',
      DATA_DIR: options.dataDir,
      SEED_DEMO: 'false',
      // The reservation expiry job would change rows under the scenarios' feet.
      JOBS_ENABLED: 'false',
      // The login scenario signs in thousands of times from one address, as a few accounts.
      AUTH_RATE_LIMIT: '1000000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000000',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { DATABASE_URL: '' }),
      ...(options.cachesOff ? { READ_CACHE_SECONDS: '0' } : {}),
      ...(options.seedDemo ? { SEED_DEMO: 'true', ALLOW_DEMO_SEED: 'true' } : {}),
      ...options.env,
    },
    {
      port: options.port,
      readyPath: COLD_START_PATH,
      timeoutMs: 180_000,
      nodeFlags: options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [],
    },
  );
}

export function startBaseline(port: number): Promise<RunningServer> {
  return start(
    'bench/baseline-server.ts',
    { NODE_ENV: 'production' },
    { port, readyPath: '/', timeoutMs: 30_000 },
  );
}
