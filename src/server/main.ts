import { existsSync } from 'node:fs';
import { buildApp } from './composition/app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { DEMO_ACCOUNTS, DEMO_MODERATOR, DEMO_PASSWORD } from './demo/accounts.ts';
import { seedDemo } from './demo/seed.ts';
import { keepServingThroughUnhandledRejections } from './unhandled-rejections.ts';

// Starts CampusLoop: config, database, migrations, demo data, listen; and stops gracefully.

async function main() {
  // Where a start spends its time, shown when it listens: restarts are meant to take seconds.
  // (performance.now() counts from the process's start.)
  const phases: string[] = [];
  let phaseStart = 0;
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${((now - phaseStart) / 1000).toFixed(1)} s`);
    phaseStart = now;
  };
  phase('loading');
  // A .env file beside package.json, when there is one, fills in settings the environment lacks.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`CampusLoop cannot start. ${error.message}\nSee .env.example for every setting.`);
      process.exit(1);
    }
    throw error;
  }

  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pools: config.databasePools,
      dataDir: config.dataDir,
      bufferPoolMb: config.embeddedBufferPoolMb,
      // Someone took over or removed DATA_DIR's lock: another process may be writing the same files.
      onLockLost: (error) => {
        console.error(`CampusLoop stops: it lost the lock on DATA_DIR ${config.dataDir} (${error.message}).`);
        process.exit(1);
      },
    });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(`CampusLoop cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  phase('database');
  await database.migrate();
  phase('migrations');

  // From before the app is built: its job queue starts working while it is built.
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  keepServingThroughUnhandledRejections(process, {
    log: (reason) => {
      if (app) app.log.error({ err: reason }, 'unhandled rejection: logged, and the server keeps serving');
      else console.error('CampusLoop: unhandled rejection (logged; the server keeps going):', reason);
    },
    count: () => app?.metrics?.unhandledRejection(),
  });
  app = await buildApp({ config, database });
  phase('app');

  // Demo data only ever goes into the embedded database, and only when it is empty.
  let seeded = false;
  if (config.seedDemo && database.kind === 'pglite') {
    seeded = (
      await seedDemo(database.db, app.storage, config.campusTimeZone, config.jobs.reservationExpiryHours)
    ).seeded;
    if (seeded) phase('demo data');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests, then closing the database`);
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  phase('listen');
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const listening = `http://${shown}:${config.port}`;
  // Under `npm run dev` (scripts/dev.ts) the page to open is Vite's, APP_URL, which forwards to this API.
  const devPage = config.env === 'development' && new URL(config.appUrl).port !== String(config.port);
  const lines = [
    '',
    devPage
      ? `  CampusLoop is running on ${config.appUrl} (open this page; the API listens on ${listening})`
      : `  CampusLoop is running on ${listening}`,
    `  Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
    `  Mail: ${config.mail.smtpUrl ? 'SMTP (SMTP_URL)' : `written to ${config.mail.outboxDir}`}; links point to ${config.appUrl}`,
    `  Payments: ${config.stripe ? 'Stripe' : 'built-in test provider (test cards; no money moves)'}`,
    `  Started in ${(performance.now() / 1000).toFixed(1)} s (${phases.join(', ')})`,
  ];
  if (database.kind === 'pglite' && config.seedDemo) {
    lines.push(seeded ? '  Demo data loaded. Demo accounts:' : '  Demo accounts (loaded on first start):');
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.email.padEnd(30)} password: ${DEMO_PASSWORD}`);
    if (config.adminEmails.includes(DEMO_MODERATOR.email)) {
      lines.push(`    ${DEMO_MODERATOR.email.padEnd(30)} password: ${DEMO_PASSWORD}  (moderator: /admin)`);
    }
  }
  if (config.stagingAllowances.length > 0) {
    // Production refuses these unless told (config.ts); whoever reads the log should see that it was told.
    lines.push(`  Production with staging allowances: ${config.stagingAllowances.join(', ')}`);
  }
  if (config.adminEmails.length === 0) lines.push('  No moderators: set ADMIN_EMAILS to open /admin.');
  if (config.metrics.token) lines.push('  Metrics: GET /metrics with Authorization: Bearer $METRICS_TOKEN');
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error('CampusLoop failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
