import { createRequire } from 'node:module';
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Database, Db } from '../db/client.ts';

// The durable job queue (decision 012): pg-boss, keeping its jobs in our own database (PostgreSQL, or
// the embedded PGlite), so a job is sent in the same transaction as the change that asks for it and
// outlives a crash, a restart or a provider outage. pg-boss retries failed jobs with exponential
// backoff and lets one instance at a time take each job (SKIP LOCKED), however many instances run.

/** The queues and their retry policy. */
export const QUEUES = {
  /** Runs a payment intent's provider steps, in order (features/payment-steps). */
  paymentSteps: 'payment-steps',
  /** Forgets at the card provider the customer of an account that was deleted (decision 037). */
  forgetCustomers: 'forget-customers',
  /** Sends a transfer to a lender's connected account (features/payouts/transfers.ts). */
  payoutTransfers: 'payout-transfers',
  /** Matches a new listing against the saved searches of its campus (features/saved-searches). */
  savedSearchMatches: 'saved-search-matches',
  /** Tells the lenders whose listings match a new ask (features/asks). */
  askMatches: 'ask-matches',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface QueuePolicy {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** Seconds before the first retry; doubled each time (pg-boss's backoff). */
  retryDelaySeconds: number;
  /** A job still running after this long is taken to have crashed, and retried. */
  expireInSeconds: number;
}

export interface JobQueue {
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Adds a job inside the caller's transaction: it exists exactly when, and if, the transaction commits.
   * `startAfter`: no worker takes it before then (a transfer due at a later time).
   */
  send(tx: Db, queue: QueueName, data: object, options?: { startAfter?: Date }): Promise<void>;
  /** Adds a job outside any transaction (the sweeper re-sending a stuck step). */
  sendNow(queue: QueueName, data: object): Promise<void>;
  /**
   * Takes this queue's jobs in this process. The handler throws to have the job retried later. `id` is
   * pg-boss's, the same on every attempt, so the logs of a job's attempts can be found together.
   */
  work<T extends object>(
    queue: QueueName,
    handler: (job: { id: string; data: T; retryCount: number; retryLimit: number }) => Promise<void>,
  ): Promise<void>;
  /** After a commit: this process's worker looks for new jobs now instead of at its next poll. */
  kick(queue: QueueName): void;
  /** Jobs waiting or running in a queue (metrics, moderators, tests). */
  size(queue: QueueName): Promise<number>;
  /** Jobs by queue and pg-boss state (created, retry, active, completed, cancelled, failed): GET /metrics. */
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
  /** Started and not stopping, and its tables answer: jobs can be sent and taken (GET /api/ready). */
  ready(): Promise<boolean>;
}

/**
 * Instances starting together on an empty PostgreSQL would both install pg-boss's schema: its own
 * lock is taken inside the installing transaction, too late to stop a second `CREATE SCHEMA` (seen:
 * "duplicate key value violates unique constraint pg_namespace_nspname_index"). A session lock of ours
 * around the whole start makes the second instance wait and then find it installed.
 */
const START_LOCK_ID = 72_061_005;

/** pg-boss's tables live in their own schema. */
const JOB_SCHEMA = 'pgboss';

async function oneAtATime(database: Database, run: () => Promise<void>): Promise<void> {
  if (!database.pool) return run();
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [START_LOCK_ID]);
    try {
      await run();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [START_LOCK_ID]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

/**
 * pg-boss 10 records a worker's outcome (`complete` after the handler, `fail` when it threw) without
 * awaiting it (src/manager.js, `watch`): a connection cut during that statement would be an unhandled
 * rejection, which ends Node. Versions that await it need Node 22 (decision 018 holds Node 20), so our
 * executor answers those two statements itself when they fail: logged, and the job stays active until
 * its expiry, when pg-boss fails it by timeout and retries it. Retrying is safe: a payment step's runner
 * finds the steps already done and makes no provider call (features/payment-steps).
 */
const PGBOSS_PLANS = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};

/** The outcome statements answered even when they fail (see above); every other statement as it is. */
export function withOutcomesThatCannotReject(
  executor: PgBoss.Db,
  schema: string,
  onLost: (error: unknown) => void,
): PgBoss.Db {
  const outcomes = new Set([PGBOSS_PLANS.completeJobs(schema), PGBOSS_PLANS.failJobsById(schema)]);
  return {
    executeSql: (text, values) => {
      const answer = executor.executeSql(text, values);
      if (!outcomes.has(text)) return answer;
      return answer.catch((error: unknown) => {
        onLost(error);
        return { rows: [{ count: 0 }] };
      });
    },
  };
}

/** pg-boss speaks `executeSql(text, values)`; this is that, on whichever database we run. */
function executorOf(database: Database): PgBoss.Db {
  if (database.pool) {
    const pool = database.pool;
    return { executeSql: (text, values) => pool.query(text, values) };
  }
  const pglite = database.pglite!;
  return {
    executeSql: async (text, values) => {
      // PGlite runs several statements only without parameters (pg-boss's own migrations).
      if (values?.length) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

/** pg-boss's `$1` placeholders as a Drizzle query, so its insert runs on the caller's transaction. */
export function parameterised(text: string, values: unknown[] = []): SQL {
  const chunks: SQL[] = [];
  let from = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(from, match.index)));
    const value = values[Number(match[1]) - 1] ?? null;
    // Job data goes to a jsonb parameter: as JSON text, the same on both drivers.
    chunks.push(
      sql`${typeof value === 'object' && value !== null && !(value instanceof Date) ? JSON.stringify(value) : value}`,
    );
    from = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(from)));
  return sql.join(chunks);
}

function inTransaction(tx: Db): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const result = await tx.execute(parameterised(text, values));
      return { rows: result.rows };
    },
  };
}

export function createJobQueue(
  database: Database,
  options: {
    /** This process works jobs (and keeps pg-boss's maintenance going); off, it only sends. */
    work: boolean;
    policies: Record<QueueName, QueuePolicy>;
    /** How often an idle worker looks for jobs; `kick` wakes it sooner. */
    pollingSeconds: number;
    log: { error: (obj: object, msg: string) => void };
  },
): JobQueue {
  const executor = executorOf(database);
  const boss = new PgBoss({
    db: withOutcomesThatCannotReject(executor, JOB_SCHEMA, (error) =>
      options.log.error({ err: error }, 'job outcome not recorded: the job runs again after it expires'),
    ),
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: options.work,
    schedule: false,
  });
  // pg-boss reports its own trouble (a lost connection during a poll) as events; unheard, they would
  // end the process.
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  const workers = new Map<QueueName, string>();
  let started = false;

  return {
    async start() {
      await oneAtATime(database, async () => {
        await boss.start();
        for (const [name, policy] of Object.entries(options.policies)) {
          const queue = {
            name,
            retryLimit: policy.retryLimit,
            retryDelay: policy.retryDelaySeconds,
            retryBackoff: true,
            expireInSeconds: policy.expireInSeconds,
          };
          // Created once; later starts bring the policy up to date.
          if (await boss.getQueue(name)) await boss.updateQueue(name, queue);
          else await boss.createQueue(name, queue);
        }
      });
      started = true;
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
    },
    async send(tx, queue, data, options) {
      const id = await boss.send(queue, data, {
        db: inTransaction(tx),
        ...(options?.startAfter ? { startAfter: options.startAfter } : {}),
      });
      if (!id) throw new Error(`the job queue ${queue} does not exist`);
    },
    async sendNow(queue, data) {
      await boss.send(queue, data);
    },
    async work(queue, handler) {
      if (!options.work) return;
      const id = await boss.work<object>(
        queue,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: options.pollingSeconds },
        async ([job]) => {
          if (job) await handler(job as never);
        },
      );
      workers.set(queue, id);
    },
    kick(queue) {
      const id = workers.get(queue);
      if (id && started) boss.notifyWorker(id);
    },
    size: (queue) => boss.getQueueSize(queue),
    async counts() {
      // Finished jobs stay in pgboss.job until pg-boss archives them (12 hours by default), so
      // completed and failed are recent counts; created and retry are the backlog.
      const { rows } = await executor.executeSql(
        'select name as queue, state::text as state, count(*)::int as count from pgboss.job group by name, state',
        [],
      );
      return rows as { queue: string; state: string; count: number }[];
    },
    async ready() {
      if (!started) return false;
      try {
        await boss.getQueueSize(QUEUES.paymentSteps);
        return true;
      } catch {
        return false;
      }
    },
  };
}
