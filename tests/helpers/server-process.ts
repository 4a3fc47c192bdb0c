import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Runs the server as its own process on a free port: the sources through tsx (what the API tests check:
// the code as it is now, no build needed), or the built bundle on plain node, as `npm start` and the
// Docker image run it (the browser journeys, which build first anyway; decision 017).

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

export interface ServerProcess {
  process: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * A production server on this machine is a staging box: it takes test cards, may load the demo campus,
 * writes mail to files, links to 127.0.0.1 and speaks plain http. Production refuses each of those
 * unless allowed (config.ts); a test that wants a refusal overrides these.
 */
export const STAGING_ALLOWANCES = {
  ALLOW_TEST_PAYMENTS: 'true',
  ALLOW_DEMO_SEED: 'true',
  ALLOW_FILE_MAIL: 'true',
  ALLOW_LOCALHOST_LINKS: 'true',
  ALLOW_INSECURE_COOKIES: 'true',
};

const LINGUI_REGISTER = pathToFileURL(
  path.resolve(import.meta.dirname, '../../scripts/lingui-register.mjs'),
).href;

/** Node's flags to run our TypeScript sources: Lingui's macros compiled as they load, then tsx. */
export const RUN_SOURCES = ['--import', LINGUI_REGISTER, '--import', 'tsx'];

/** How to run the server: its sources through tsx, or `dist/server/main.js` (built) on plain node. */
export type ServerEntry = 'source' | 'bundle';

export function serverCommand(entry: ServerEntry): string[] {
  // The sources need Lingui's macros compiled as they load (scripts/lingui-register.mjs, decision 035),
  // before tsx compiles the TypeScript.
  return entry === 'bundle' ? ['dist/server/main.js'] : [...RUN_SOURCES, 'src/server/main.ts'];
}

export async function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
  options: {
    entry?: ServerEntry;
    /** Where to run it (the project by default); the bundle finds dist/ and node_modules/ from here. */
    cwd?: string;
    /** The environment to start from instead of this process's (which carries vitest's and npm's). */
    baseEnv?: NodeJS.ProcessEnv;
  } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, serverCommand(options.entry ?? 'source'), {
    cwd: options.cwd,
    env: {
      ...(options.baseEnv ?? process.env),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // Links in e-mails point where the browser reaches this server, so they open signed in.
      APP_URL: url,
      ...STAGING_ALLOWANCES,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return { process: child, url, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer within ${timeoutMs} ms:\n${output}`);
}

/** SIGTERM, then the exit code once the process has finished its in-flight work and closed the database. */
export function stopServer(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
