import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

// Opens the database: embedded PGlite under DATA_DIR by default, PostgreSQL when a URL is given.
// Both speak the same SQL and run the same migrations folder.

/**
 * The query builder type. PGlite's Drizzle database has the same API as node-postgres's; we type both
 * as the latter so services and queries are written once.
 */
export type Db = NodePgDatabase<Record<string, never>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance when embedded (tests clone and dump it). */
  pglite?: PGlite;
  pool?: pg.Pool;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any constant: the advisory lock id that lets one instance at a time migrate a shared database. */
const MIGRATION_LOCK_ID = 72_061_001;

export const pgliteExtensions = { pg_trgm, btree_gist };

/**
 * pg_trgm's word-similarity cut-off for search (`<%`). The default 0.6 misses short typos: "drll"
 * scores 0.4 against "cordless drill". Set on every connection, embedded or not.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.38;

/**
 * Random reads cost about as much as sequential ones on SSDs and in memory (PostgreSQL's default 4
 * dates from spinning disks). At 4 the planner scans all 10,000 items for a typo search instead of
 * using the trigram index: 180 ms against 20 (docs/performance.md). Set on every connection.
 */
export const RANDOM_PAGE_COST = 1.1;

export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir, { extensions: pgliteExtensions, loadDataDir });
  await client.exec(
    `set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}; set random_page_cost = ${RANDOM_PAGE_COST}`,
  );
  return wrapPglite(client);
}

export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    migrate: async () => {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

export function openPostgres(connectionString: string, max = 10): Database {
  const pool = new pg.Pool({
    connectionString,
    max,
    options: `-c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD} -c random_page_cost=${RANDOM_PAGE_COST}`,
  });
  // An idle connection that the server drops (restart, failover, a dropped test database) emits an
  // error on the pool; unhandled, it would end the process. The pool replaces the connection.
  pool.on('error', () => {});
  const db = drizzleNodePg(pool);
  return {
    db,
    kind: 'postgres',
    pool,
    migrate: async () => {
      // Several instances may start at once; the advisory lock makes the others wait for the first.
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        // Migrate on the connection that holds the lock: a pool of one must not wait for a second.
        await migrateNodePg(drizzleNodePg(lock), { migrationsFolder });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        lock.release();
      }
    },
    close: async () => {
      await pool.end();
    },
  };
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

/** True when the database has no users yet: the only time demo data may be loaded. */
export async function isEmpty(db: Db): Promise<boolean> {
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
  return (result.rows[0]?.n ?? 0) === 0;
}
