// @ts-check
// `npm start`: build when the sources changed (scripts/build.mjs --if-stale), then the server bundle,
// in this one process. npm runs a script through `sh -c`, and sh stays the parent of what it starts:
// a SIGTERM that npm passes on then ended sh and left the server running with nobody to stop it.
// package.json runs this with `exec`, so npm's child is this process: npm's SIGTERM or SIGINT reaches
// the build while it runs (it is stopped with it) and then the server itself, which stops gracefully
// (src/server/main.ts).
//
// Plain JavaScript, like build.mjs: it runs in an install without dev dependencies.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs the build check as a child that hears this process's SIGTERM and SIGINT; answers its exit code. */
function buildIfStale() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], {
      stdio: 'inherit',
    });
    const forward = (/** @type {NodeJS.Signals} */ signal) => {
      stopped = signal;
      child.kill(signal);
    };
    /** @type {NodeJS.Signals | undefined} */
    let stopped;
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.on('exit', (code) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', forward);
      resolve(stopped ? 128 + (stopped === 'SIGINT' ? 2 : 15) : (code ?? 1));
    });
  });
}

const code = await buildIfStale();
if (code !== 0) process.exit(code);
await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
