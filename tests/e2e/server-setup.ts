import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, stopServer } from '../helpers/server-process.ts';

// Starts the real server (built web app, fresh embedded database with the demo campus) for the
// browser journeys, and stops it gracefully afterwards. It is the bundle on plain node, as `npm start`
// and the Docker image run it: the journeys need the built web app anyway, so they check what ships
// (decision 017).

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's DATA_DIR/outbox: every e-mail it sends lands there as an .eml file. */
    outboxDir: string;
  }
}

/**
 * A first start on an empty DATA_DIR creates the embedded database (PGlite's initdb), migrates it and
 * draws the demo photos. Measured on this 2-core machine: 16 s when quiet; 42 s with the load average
 * at 10 (initdb 21 s, the demo seed 15 s, loading the sources 5 s); past a minute, the old deadline,
 * at 11 with two busy loops beside. A crash is reported at once (startServer watches the process);
 * this only bounds a start that hangs.
 */
const FIRST_START_TIMEOUT_MS = 180_000;

export default async function setup(project: TestProject) {
  // `npm run test:e2e` has built already; run alone, the journeys build what changed first (instant when
  // nothing did), so they never check a stale bundle.
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed: the browser journeys need the built app');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-e2e-'));
  const server: { process: ChildProcess; url: string } = await startServer(
    {
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      // The demo campus's moderator is the admin of the moderation journey.
      ADMIN_EMAILS: 'moderator@stanford.edu',
      // Every journey signs in from the same address, dozens of times a minute, often as the same demo
      // account; the limits per IP (30 a minute by default) and per account (10 in 15 minutes) have
      // their own API tests (tests/api/rate-limit.test.ts, tests/api/login-throttle.test.ts).
      AUTH_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      // The secured part of a rental goes to the lender at pickup, not a day later: the earnings
      // journey waits for it to say Sent.
      PAYOUT_DELAY_HOURS: '0',
    },
    FIRST_START_TIMEOUT_MS,
    { entry: 'bundle' },
  );
  project.provide('baseURL', server.url);
  project.provide('outboxDir', path.join(dataDir, 'outbox'));
  return async () => {
    await stopServer(server.process);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
