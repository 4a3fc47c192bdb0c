import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import setup, { testDatabaseName } from '../helpers/database-setup.ts';

// Two test runs may share one PostgreSQL server (two checkouts, CI beside a developer). A run's
// teardown drops the databases it made, and never another run's, which may still be in use.

const url = process.env.TEST_DATABASE_URL;

async function databases(client: pg.Client, prefix: string): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>(
    'select datname from pg_database where starts_with(datname, $1) order by datname',
    [prefix],
  );
  return rows.map((r) => r.datname);
}

describe.skipIf(!url)('test databases on a shared PostgreSQL', () => {
  it("drops its own template and leftovers, and leaves another run's databases alone", async () => {
    const provided: Record<string, string> = {};
    const project = { provide: (key: string, value: string) => (provided[key] = value) };
    const teardown = (await setup(project as unknown as TestProject)) as () => Promise<void>;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const foreign = testDatabaseName('campusloop_test_other_run_', 'file');
    try {
      const prefix = provided.testDatabasePrefix!;
      expect(prefix).toMatch(/^campusloop_test_\d+_[0-9a-f]{6}_$/);
      const leftover = testDatabaseName(prefix, 'file');
      await admin.query(`create database ${leftover}`);
      await admin.query(`create database ${foreign}`);

      await teardown();

      expect(await databases(admin, prefix)).toEqual([]);
      expect(await databases(admin, provided.postgresTemplate!)).toEqual([]);
      expect(await databases(admin, foreign)).toEqual([foreign]);
    } finally {
      await admin.query(`drop database if exists ${foreign} with (force)`);
      await admin.end();
    }
  });
});

describe.skipIf(url)('the migrated PGlite copy', () => {
  it('is removed when the run ends: every run wrote 43 MB to the temp folder and left it there', async () => {
    const provided: Record<string, string> = {};
    const project = { provide: (key: string, value: string) => (provided[key] = value) };
    const teardown = (await setup(project as unknown as TestProject)) as (() => unknown) | undefined;
    const dump = provided.pgliteDump!;
    expect(existsSync(dump)).toBe(true);
    await teardown?.();
    expect(existsSync(dump)).toBe(false);
  }, 120_000);
});
