import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { EMBEDDED_BUFFER_POOL_MB } from '../config-environment.ts';
import { serverDir } from '../server-dir.ts';
import { readPlainArraysFast } from './array-columns.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { EmbeddedClient } from './embedded-client.ts';
import { countCheckout, countStatement, currentLane, type PoolUse } from './lanes.ts';

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
  /** The embedded database, in its own thread (tests clone and dump it; the hub listens on it). */
  pglite?: EmbeddedClient;
  /**
   * PostgreSQL: the reading pool (DATABASE_POOL_SIZE), also the background's: the job queue, the job
   * locks, the metrics' reads.
   */
  pool?: pg.Pool;
  /**
   * PostgreSQL: the writing pool (DATABASE_WRITE_POOL_SIZE): every transaction, every statement of a
   * changing request, the cache announcements' marks. Apart, so a write never waits behind reads.
   */
  writePool?: pg.Pool;
  /** PostgreSQL with DATABASE_REPLICA_URL: the catalogue's reads (lanes.ts, 'replica'). */
  replicaPool?: pg.Pool;
  /**
   * Connections taken and time spent waiting for them, per pool since it opened (PGlite: its one
   * connection, under `embedded`). A request's own share is in its lane (lanes.ts).
   */
  poolUse: Record<string, PoolUse>;
  /** PostgreSQL: a new connection outside the pool (the realtime hub's LISTEN connection). */
  newClient?: () => pg.Client;
  /** Every statement the app sends, timed where the driver sends it (GET /metrics). */
  queries: QueryTimings;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Hears each statement's answer: how long it took, and whether it failed. */
export type QueryObserver = (seconds: number, failed: boolean) => void;

/**
 * Statements sent and answered, counted at the driver (one wrapper per driver below), so whatever sends
 * them is seen: Drizzle, transactions, pg-boss, advisory locks. Without observers it costs two clock reads.
 */
export class QueryTimings {
  /**
   * Sent and not yet answered. PostgreSQL: running on a pool connection. PGlite, which runs one
   * statement at a time: running or waiting for its turn (it has no pool to report on).
   */
  inFlight = 0;
  private readonly observers = new Set<QueryObserver>();

  observe(observer: QueryObserver): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  /** Call as a statement is sent; call its answer once it is answered (with the error, if any). */
  start(): (error?: unknown) => void {
    this.inFlight++;
    countStatement();
    const started = performance.now();
    let finished = false;
    return (error) => {
      if (finished) return;
      finished = true;
      this.inFlight--;
      const seconds = (performance.now() - started) / 1000;
      for (const observer of this.observers) observer(seconds, error !== undefined && error !== null);
    };
  }

  async time<T>(run: () => Promise<T>): Promise<T> {
    const done = this.start();
    try {
      const result = await run();
      done();
      return result;
    } catch (error) {
      done(error);
      throw error;
    }
  }
}

/** src/server/db/migrations, or its copy beside the bundle (dist/server/db/migrations). */
export const migrationsFolder = path.join(serverDir, 'db', 'migrations');

/** Any constant: the advisory lock id that lets one instance at a time migrate a shared database. */
const MIGRATION_LOCK_ID = 72_061_001;

/**
 * pg_trgm's similarity cut-off (`%`) for correcting a misspelt search word against the catalogue's
 * vocabulary (features/items/vocabulary.ts): "drll" scores 0.375 against "drill", "calculater" 0.57
 * against "calculator". PostgreSQL's default, stated so that a changed default cannot move it. Set on
 * every connection, embedded or not.
 */
export const SIMILARITY_THRESHOLD = 0.3;

/**
 * Random reads cost about as much as sequential ones on SSDs and in memory (PostgreSQL's default 4
 * dates from spinning disks). At 4 the planner scans all 10,000 items for a typo search instead of
 * using an index: 180 ms against 20 for the typo search of the time (docs/performance.md). Set on every connection.
 */
export const RANDOM_PAGE_COST = 1.1;

/**
 * The reading connections run a statement prepared by name with the one plan PostgreSQL keeps for it,
 * never one made for each run's values. Left to choose, PostgreSQL planned most of Browse's pages for
 * their values on every run (a category or campus smaller than average makes that plan look cheaper),
 * and planning cost about as much as the statement itself: 1.4 ms of 3.1 a page, two-fifths of the
 * list statements' time on a campus day, for no faster reads (decision 088). The writing connections keep
 * PostgreSQL's choice: a transaction's statements are seldom repeated as they are.
 */
export const READ_PLAN_CACHE_MODE = 'force_generic_plan';

export interface PgliteOptions {
  /** The lock on DATA_DIR was taken over or removed while held (data-dir-lock.ts); default: throw. */
  onLockLost?: (error: Error) => void;
  /** How long to wait for another process's lock on DATA_DIR (data-dir-lock.ts); default about 12 s. */
  lockWaitMs?: number;
  /** The buffer pool's megabytes; default EMBEDDED_BUFFER_POOL_MB. */
  bufferPoolMb?: number;
}

/**
 * The embedded database: under `dataDir/pg` (locked to this process, data-dir-lock.ts), or in memory
 * without a `dataDir` (tests load a migrated copy).
 */
export async function openPglite(
  dataDir?: string,
  loadDataDir?: Blob,
  options: PgliteOptions = {},
): Promise<Database> {
  let dir: string | undefined;
  let unlock: (() => Promise<void>) | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    unlock = await lockDataDir(
      dir,
      options.onLockLost ??
        ((error) => {
          throw error;
        }),
      options.lockWaitMs,
    );
  }
  try {
    const client = await EmbeddedClient.start({
      dir,
      load: loadDataDir && { bytes: await loadDataDir.arrayBuffer(), type: loadDataDir.type },
      startParams: ['-c', `shared_buffers=${options.bufferPoolMb ?? EMBEDDED_BUFFER_POOL_MB}MB`],
      setup: `set pg_trgm.similarity_threshold = ${SIMILARITY_THRESHOLD}; set random_page_cost = ${RANDOM_PAGE_COST}`,
    });
    const database = wrapPglite(client);
    return {
      ...database,
      close: async () => {
        await database.close();
        await unlock?.().catch(() => {});
        unlock = undefined;
      },
    };
  } catch (error) {
    await unlock?.().catch(() => {});
    throw error;
  }
}

/**
 * Times every statement sent to PGlite through its public API: `query` and `exec` (Drizzle outside
 * transactions, pg-boss, the hub's LISTEN) and the same two on each transaction's handle (Drizzle's
 * transactions). The time includes waiting for the one embedded connection.
 */
function timePglite(client: EmbeddedClient, timings: QueryTimings, use: PoolUse) {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  // Counted as PostgreSQL's pools count them (one statement outside a transaction, or one transaction,
  // is one checkout of the one connection), so the checkout budgets hold on both databases.
  const checkout = <T>(run: () => Promise<T>) => {
    const waited = countCheckout(use);
    waited(0);
    return run();
  };
  client.query = ((...args: Parameters<typeof query>) =>
    checkout(() => timings.time(() => query(...args)))) as typeof client.query;
  client.exec = (...args) => checkout(() => timings.time(() => exec(...args)));
  client.transaction = (callback) =>
    checkout(() =>
      transaction((tx) => {
        const txQuery = tx.query.bind(tx);
        const txExec = tx.exec.bind(tx);
        tx.query = ((...args: Parameters<typeof txQuery>) =>
          timings.time(() => txQuery(...args))) as typeof tx.query;
        tx.exec = (...args) => timings.time(() => txExec(...args));
        return callback(tx);
      }),
    );
}

/**
 * Times every statement a pool connection runs: Drizzle's queries go through `pool.query`, which runs
 * them on a connection, and its transactions run on a checked-out connection, so the connection's own
 * `query` sees all of them. Callback and promise calls alike (pg-pool uses the callback form); cursors
 * and streams (objects with `submit`), and queries carrying their own callback, pass untimed.
 */
function timePgClient(client: pg.PoolClient, timings: QueryTimings) {
  type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;
  const target = client as unknown as { query: Query };
  const query = target.query;
  target.query = function (this: unknown, config, values, callback) {
    const own = config as { submit?: unknown; callback?: unknown } | null;
    if (own && typeof own === 'object' && (typeof own.submit === 'function' || own.callback)) {
      return query.call(this, config, values, callback);
    }
    const done = timings.start();
    const given = typeof values === 'function' ? values : callback;
    if (typeof given === 'function') {
      const answered = (error: unknown, result: unknown) => {
        done(error);
        given(error, result);
      };
      return typeof values === 'function'
        ? query.call(this, config, answered)
        : query.call(this, config, values, answered);
    }
    let result: unknown;
    try {
      result = query.call(this, config, values);
    } catch (error) {
      done(error);
      throw error;
    }
    const promise = result as Promise<unknown> | undefined;
    if (typeof promise?.then === 'function') promise.then(() => done(), done);
    else done();
    return result;
  };
}

function wrapPglite(client: EmbeddedClient): Database {
  // Drizzle's PGlite driver calls only `query` and `transaction`, which the thread's client answers.
  const drizzleClient = client as unknown as PGlite;
  const db = drizzlePglite(drizzleClient) as unknown as Db;
  const queries = new QueryTimings();
  const embedded: PoolUse = { checkouts: 0, waitSeconds: 0 };
  timePglite(client, queries, embedded);
  return {
    db,
    kind: 'pglite',
    pglite: client,
    queries,
    poolUse: { embedded },
    migrate: async () => {
      await migratePglite(drizzlePglite(drizzleClient), { migrationsFolder });
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** A connection attempt that has not succeeded by then fails (the request answers 503), never hangs. */
const CONNECT_TIMEOUT_MS = 5000;

/** Pool sizes and the replica, per instance (DATABASE_POOL_SIZE, DATABASE_WRITE_POOL_SIZE, DATABASE_REPLICA_URL). */
export interface PostgresPools {
  /** Connections for reads and the background (job queue, job locks). Default 10. */
  read?: number;
  /** Connections for transactions and changing requests. Default: 4, or fewer for a small `read`. */
  write?: number;
  /** A replica (or the same database) for the catalogue's reads; its pool is `read` big. */
  replicaUrl?: string;
}

/**
 * Counts each checkout of `pool` (pg-pool's `query` takes its connection through `connect` too, so
 * every statement is seen) and the time it waited for a free connection.
 */
function countCheckouts(pool: pg.Pool, use: PoolUse) {
  type Connect = (callback?: (error: Error | undefined, client: unknown, done: unknown) => void) => unknown;
  const target = pool as unknown as { connect: Connect };
  const connect = target.connect.bind(pool) as Connect;
  target.connect = (callback) => {
    const started = performance.now();
    const waited = countCheckout(use);
    if (callback) {
      return connect((error, client, done) => {
        waited(performance.now() - started);
        callback(error, client, done);
      });
    }
    const promise = connect() as Promise<pg.PoolClient>;
    return promise.then(
      (client) => {
        waited(performance.now() - started);
        return client;
      },
      (error: unknown) => {
        waited(performance.now() - started);
        throw error;
      },
    );
  };
}

/**
 * What Drizzle is given instead of one pool: a statement outside a transaction goes to the pool of the
 * work's lane (lanes.ts: reads by default, writes in a changing request, the replica for the
 * catalogue), a transaction (`connect`) always to the writing pool. Drizzle treats anything whose class
 * is named like a pool as one (node-postgres/session.js).
 */
class LanePool {
  constructor(
    private readonly read: pg.Pool,
    private readonly write: pg.Pool,
    private readonly replica: pg.Pool | undefined,
  ) {}

  private forLane(): pg.Pool {
    const lane = currentLane()?.lane;
    if (lane === 'write') return this.write;
    if (lane === 'replica') return this.replica ?? this.read;
    return this.read;
  }

  query(...args: unknown[]): unknown {
    const pool = this.forLane();
    return (pool.query as (...a: unknown[]) => unknown).apply(pool, args);
  }

  connect(): Promise<pg.PoolClient> {
    return this.write.connect();
  }
}

export function openPostgres(connectionString: string, sizes: number | PostgresPools = 10): Database {
  const pools = typeof sizes === 'number' ? { read: sizes } : sizes;
  const readMax = pools.read ?? 10;
  // A test's or a tool's small pool gets a write pool in proportion, not four more connections each.
  const writeMax = pools.write ?? Math.max(2, Math.min(4, Math.ceil(readMax / 2)));
  const options = `-c pg_trgm.similarity_threshold=${SIMILARITY_THRESHOLD} -c random_page_cost=${RANDOM_PAGE_COST}`;
  const settings = {
    connectionString,
    options,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A peer that vanished without closing (a failover, a cut network) is noticed, not waited on forever.
    keepAlive: true,
  };
  readPlainArraysFast();
  const queries = new QueryTimings();
  const poolUse: Record<string, PoolUse> = {};
  const readOptions = `${options} -c plan_cache_mode=${READ_PLAN_CACHE_MODE}`;
  const openPool = (name: string, url: string, max: number, poolOptions: string) => {
    const pool = new pg.Pool({ ...settings, connectionString: url, max, options: poolOptions });
    // A connection the server drops (restart, failover, pg_terminate_backend, a dropped test database)
    // emits 'error' on its client. Idle, the pool hears it and passes it on here, and replaces the
    // connection. Checked out (inside a transaction, holding a job's lock), the client itself emits it
    // with no listener of the pool's, which would end the process: every client gets one. The query that
    // was running fails, and its request answers 503 (http/error-replies.ts); the pool drops the client.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      timePgClient(client, queries);
    });
    poolUse[name] = { checkouts: 0, waitSeconds: 0 };
    countCheckouts(pool, poolUse[name]);
    return pool;
  };
  const pool = openPool('read', connectionString, readMax, readOptions);
  const writePool = openPool('write', connectionString, writeMax, options);
  const replicaPool = pools.replicaUrl
    ? openPool('replica', pools.replicaUrl, readMax, readOptions)
    : undefined;
  const db = drizzleNodePg(new LanePool(pool, writePool, replicaPool) as unknown as pg.Pool);
  return {
    db,
    kind: 'postgres',
    pool,
    writePool,
    replicaPool,
    poolUse,
    queries,
    newClient: () => new pg.Client(settings),
    migrate: async () => {
      // Several instances may start at once; the advisory lock makes the others wait for the first.
      const lock = await writePool.connect();
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
      await Promise.all([pool.end(), writePool.end(), replicaPool?.end()]);
    },
  };
}

export async function openDatabase(
  options: { databaseUrl?: string; dataDir: string; pools?: PostgresPools } & PgliteOptions,
): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.pools)
    : openPglite(options.dataDir, undefined, {
        onLockLost: options.onLockLost,
        bufferPoolMb: options.bufferPoolMb,
      });
}

/** True when the database has no users yet: the only time demo data may be loaded. */
export async function isEmpty(db: Db): Promise<boolean> {
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
  return (result.rows[0]?.n ?? 0) === 0;
}
