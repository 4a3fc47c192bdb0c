import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../src/server/db/client.ts';

// The bench's own database: an embedded one in the run's data folder, or a database of its own on the
// PostgreSQL server that DATABASE_URL names. The database DATABASE_URL itself names is never touched,
// nor another run's: several people bench on one server, so each run's database carries its process
// id and the run drops only that one.

export const BENCH_DATABASE = `campusloop_bench_${process.pid}`;

export interface BenchDatabase {
  kind: 'pglite' | 'postgres';
  /** DATABASE_URL for the server under test (undefined: embedded in its DATA_DIR). */
  serverUrl?: string;
  open(): Promise<Database>;
  /** Removes the PostgreSQL database (the data folder is the caller's). */
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  // Connect to the named database, or to `postgres` when the URL names the bench's own.
  const target = new URL(url).pathname.startsWith('/campusloop_bench') ? withDatabase(url, 'postgres') : url;
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(options: {
  dataDir: string;
  postgresUrl?: string;
}): Promise<BenchDatabase> {
  const { postgresUrl } = options;
  if (!postgresUrl) {
    return { kind: 'pglite', open: () => openPglite(options.dataDir), drop: async () => {} };
  }
  await admin(postgresUrl, async (client) => {
    await client.query(`drop database if exists ${BENCH_DATABASE} with (force)`);
    await client.query(`create database ${BENCH_DATABASE}`);
  });
  const serverUrl = withDatabase(postgresUrl, BENCH_DATABASE);
  return {
    kind: 'postgres',
    serverUrl,
    open: async () => openPostgres(serverUrl, 4),
    // BENCH_KEEP_DATABASE=1 leaves the seeded campus behind, to EXPLAIN its statements afterwards.
    drop: async () => {
      if (process.env.BENCH_KEEP_DATABASE === '1') return;
      await admin(postgresUrl, async (client) => {
        await client.query(`drop database if exists ${BENCH_DATABASE} with (force)`);
      });
    },
  };
}
