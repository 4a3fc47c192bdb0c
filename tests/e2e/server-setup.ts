import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, stopServer } from '../helpers/server-process.ts';

// Starts the real server (built web app, fresh embedded database with the demo campus) for the
// browser journeys, and stops it gracefully afterwards.

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's DATA_DIR/outbox: every e-mail it sends lands there as an .eml file. */
    outboxDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-e2e-'));
  const server: { process: ChildProcess; url: string } = await startServer({
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    // The demo campus's moderator is the admin of the moderation journey.
    ADMIN_EMAILS: 'moderator@stanford.edu',
    // Every journey signs in from the same address, dozens of times a minute; the per-IP limit on
    // sign-in (10 a minute by default) has its own API test (tests/api/rate-limit.test.ts).
    AUTH_RATE_LIMIT: '1000',
  });
  project.provide('baseURL', server.url);
  project.provide('outboxDir', path.join(dataDir, 'outbox'));
  return async () => {
    await stopServer(server.process);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
