import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../../src/server/db/client.ts';
import { testDatabaseName, withDatabase } from './database-setup.ts';

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (url && template) {
    const name = testDatabaseName(inject('testDatabasePrefix'), 'file');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Two files copying the template at the same instant can collide; the second simply retries.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`create database ${name} template ${template}`);
          break;
        } catch (error) {
          if (attempt >= 10 || !String(error).includes('is being accessed by other users')) throw error;
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
        }
      }
    } finally {
      await admin.end();
    }
    const database = openPostgres(withDatabase(url, name), 5);
    const close = database.close;
    return {
      ...database,
      close: async () => {
        await close();
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  return openPglite(undefined, pgliteDump());
}

/**
 * The migrated database, read once per worker: files that share a worker (isolate: false) share this
 * module, and every PGlite loads its own copy of the blob.
 */
let dump: { file: string; blob: Blob } | undefined;
function pgliteDump(): Blob {
  const file = inject('pgliteDump');
  if (dump?.file !== file) dump = { file, blob: new Blob([readFileSync(file)]) };
  return dump.blob;
}
