import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../src/server/db/client.ts';

// Migrates one database before the API tests start; every test file then gets its own fresh copy
// (tests/helpers/test-database.ts): a loaded PGlite data dir, or a PostgreSQL database made from a
// template when TEST_DATABASE_URL is set.

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    postgresTemplate: string;
    /** Every PostgreSQL database this run makes starts with it; teardown drops those and no others. */
    testDatabasePrefix: string;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // Several runs may share one server (two checkouts, CI beside a developer): each names its
    // databases after itself and drops only those.
    const run = `${process.pid}_${randomBytes(3).toString('hex')}`;
    const prefix = `campusloop_test_${run}_`;
    const template = `campusloop_template_${run}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const templateUrl = withDatabase(url, template);
    const database = openPostgres(templateUrl, 1);
    await database.migrate();
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('testDatabasePrefix', prefix);
    project.provide('pgliteDump', '');
    return async () => {
      // Drop the template and any per-file database a crashed worker of this run left behind.
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where starts_with(datname, $1) or datname = $2',
        [prefix, template],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
  const database = await openPglite();
  await database.migrate();
  const dump = await database.pglite!.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `campusloop-test-db-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDump', file);
  project.provide('postgresTemplate', '');
  project.provide('testDatabasePrefix', '');
  // 43 MB a run: left behind, a day of runs filled /tmp.
  return () => rmSync(file, { force: true });
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A database name of this test run's own (the teardown drops it if its file could not). */
export function testDatabaseName(prefix: string, tag: string): string {
  return `${prefix}${tag}_${randomBytes(6).toString('hex')}`;
}
