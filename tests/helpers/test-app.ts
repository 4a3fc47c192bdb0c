import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { PaymentProvider } from '../../src/server/adapters/payments/provider.ts';
import { type App, type AppDeps, buildApp } from '../../src/server/composition/app.ts';
import { type Config, testConfig } from '../../src/server/config.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { NO_PLATFORM_SHARE } from '../../src/shared/booking/service-fee.ts';
import { expectMoneyBalanced } from './money.ts';
import { createTestDatabase } from './test-database.ts';

export const ORIGIN = 'http://localhost:80';

/**
 * For a test file about something other than the service fee (a policy's or an early return's rental
 * arithmetic): the app charges none, so its amounts stay the rental's and the deposit's. The fee's own
 * tests (tests/api/service-fee.test.ts) and the pinned money of a booking run with the real defaults.
 */
export const WITHOUT_SERVICE_FEE = { fees: NO_PLATFORM_SHARE } as const;

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  /** Where this file's e-mails go (the outbox mailer's folder), unless the test configured SMTP. */
  outboxDir: string;
  /** Calls the API the way the web app does: same-origin, JSON, optionally with a session cookie. */
  request(options: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  get(url: string, cookie?: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown, cookie?: string): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown, cookie?: string): Promise<LightMyRequestResponse>;
  del(url: string, cookie?: string): Promise<LightMyRequestResponse>;
}

/**
 * Builds the app on a fresh database for the test file that calls it. Every response is checked
 * never to carry a password hash, whatever the test itself asserts.
 */
export function setupTestApp(
  overrides: Partial<Config> = {},
  {
    payments,
    ...deps
  }: Partial<Pick<AppDeps, 'imageQueue' | 'onRoute' | 'logger' | 'clock' | 'push'>> & {
    /** A payment provider of the test's own (a flaky one), made on this file's database. */
    payments?: (db: Db) => PaymentProvider;
  } = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    const started = performance.now();
    ctx.database = await createTestDatabase();
    const databaseReady = performance.now();
    // E-mails from registration and Resend land in a folder of this file's own, never in ./data.
    ctx.outboxDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-outbox-'));
    const base = testConfig();
    ctx.config = testConfig({
      webDir: '/nonexistent',
      ...overrides,
      mail: { ...base.mail, outboxDir: ctx.outboxDir, ...overrides.mail },
    });
    ctx.app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      logger: false,
      ...deps,
      ...(payments ? { payments: payments(ctx.database.db) } : {}),
    });
    await ctx.app.ready();
    reportPhases({ database: databaseReady - started, app: performance.now() - databaseReady });
  });
  // Whatever a test did, our billing rows say what the provider did with the money.
  afterEach(async () => {
    if (ctx.app) await expectMoneyBalanced(ctx);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
    if (ctx.outboxDir) rmSync(ctx.outboxDir, { recursive: true, force: true });
  });

  ctx.request = async ({ cookie, headers, ...options }) => {
    const response = await ctx.app.inject({
      ...options,
      headers: { origin: ORIGIN, host: 'localhost:80', ...(cookie ? { cookie } : {}), ...headers },
    });
    expect(response.body).not.toMatch(/\$argon2|password_?hash/i);
    return response;
  };
  ctx.get = (url, cookie) => ctx.request({ method: 'GET', url, cookie });
  ctx.post = (url, body, cookie) =>
    ctx.request({ method: 'POST', url, cookie, ...(body === undefined ? {} : { payload: body as object }) });
  ctx.put = (url, body, cookie) =>
    ctx.request({ method: 'PUT', url, cookie, ...(body === undefined ? {} : { payload: body as object }) });
  ctx.del = (url, cookie) => ctx.request({ method: 'DELETE', url, cookie });
  return ctx;
}

/**
 * With TEST_PHASES=1, each file's set-up says what it cost (decision 041: where the suite's time goes).
 * Written to stderr, so it goes past Vitest's capture of console output and its console.error check.
 */
function reportPhases(phases: Record<string, number>) {
  if (!process.env.TEST_PHASES) return;
  const file = expect.getState().testPath ?? '';
  const parts = Object.entries(phases).map(([phase, ms]) => `${phase} ${Math.round(ms)} ms`);
  process.stderr.write(`[phases] ${path.relative(process.cwd(), file)}: ${parts.join(', ')}\n`);
}

/** The `name=value` pair of the session cookie a response set, ready for a Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'cl_session');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}
