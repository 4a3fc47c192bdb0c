import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

// `npm run dev`: the API with restart-on-change on API_PORT (5001) and Vite with hot reload on PORT
// (5000), which proxies /api, /uploads and /ws to it. One command, both stop together.
//
// package.json runs this with `exec` and plain node (no tsx command, no npx): npm runs a script through
// `sh -c`, sh stayed the parent of what it started, and npm's SIGTERM ended sh and the wrappers while
// the API and Vite ran on. Now npm's child is this process, its children are the API's watcher
// (node --watch, which stops the API it runs) and Vite itself, and a SIGTERM or SIGINT stops them all.

const apiPort = process.env.API_PORT ?? '5001';
const webPort = process.env.PORT ?? '5000';
/** How long the API may take to finish its requests and close the database before it is killed. */
const STOP_GRACE_MS = 30_000;

// Links in e-mails (verification) open the page the developer is using, Vite's, not the API's port;
// the API's start banner names it too.
const env = {
  ...process.env,
  API_PORT: apiPort,
  APP_URL: process.env.APP_URL ?? `http://localhost:${webPort}`,
};
// Vite's own command, run by this node: `npx vite` added npm and a shell between us and Vite.
const vitePackage = createRequire(import.meta.url).resolve('vite/package.json');
const vite = path.join(path.dirname(vitePackage), 'bin/vite.js');
const root = path.resolve(import.meta.dirname, '..');

const children: ChildProcess[] = [
  spawn(
    process.execPath,
    ['--import', './scripts/lingui-register.mjs', '--import', 'tsx', '--watch', 'src/server/main.ts'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...env, PORT: apiPort, HOST: '127.0.0.1', NODE_ENV: 'development' },
    },
  ),
  spawn(process.execPath, [vite], { cwd: root, stdio: 'inherit', env }),
];

let stopping = false;
const running = () => children.filter((child) => child.exitCode === null && child.signalCode === null);
/** SIGTERM to each child (Vite stops on SIGTERM only; the watcher on either), then SIGKILL if one hangs. */
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const child of running()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of running()) child.kill('SIGKILL');
  }, STOP_GRACE_MS).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code, signal) => {
    // One of them ending (a crash, a port in use) ends the other: half a dev server helps nobody.
    if (!stopping && (code !== 0 || signal)) process.exitCode = code ?? 1;
    stop();
  });
}
