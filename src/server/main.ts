import { existsSync } from 'node:fs';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DEMO_ACCOUNTS, DEMO_MODERATOR, DEMO_PASSWORD } from './demo/accounts.ts';
import { seedDemo } from './demo/seed.ts';

// Starts CampusLoop: config, database, migrations, demo data, listen; and stops gracefully.

async function main() {
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

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();

  const app = await buildApp({ config, database });

  // Demo data only ever goes into the embedded database, and only when it is empty.
  let seeded = false;
  if (config.seedDemo && database.kind === 'pglite') {
    seeded = (await seedDemo(database.db, app.storage, config.campusTimeZone)).seeded;
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
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    '',
    `  CampusLoop is running on http://${shown}:${config.port}`,
    `  Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
    `  Mail: ${config.mail.smtpUrl ? 'SMTP (SMTP_URL)' : `written to ${config.mail.outboxDir}`}; links point to ${config.appUrl}`,
  ];
  if (database.kind === 'pglite' && config.seedDemo) {
    lines.push(seeded ? '  Demo data loaded. Demo accounts:' : '  Demo accounts (loaded on first start):');
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.email.padEnd(30)} password: ${DEMO_PASSWORD}`);
    if (config.adminEmails.includes(DEMO_MODERATOR.email)) {
      lines.push(`    ${DEMO_MODERATOR.email.padEnd(30)} password: ${DEMO_PASSWORD}  (moderator: /admin)`);
    }
  }
  if (config.adminEmails.length === 0) lines.push('  No moderators: set ADMIN_EMAILS to open /admin.');
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error('CampusLoop failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
