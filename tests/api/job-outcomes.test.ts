import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { createJobQueue, type JobQueue, QUEUES } from '../../src/server/jobs/queue.ts';
import { createTestDatabase } from '../helpers/test-database.ts';
import { waitFor } from '../helpers/wait-for.ts';

// pg-boss 10 records a worker's outcome (completed, or failed to be retried) without awaiting it: a
// connection cut during that statement was an unhandled rejection, and Node ended the server (one
// attack run in five). The queue answers those statements itself when they fail (jobs/queue.ts).
// The cut is made here at the driver, the same on PGlite (which has no connections to cut) and on
// PostgreSQL; tests/api/connection-cuts.test.ts cuts real connections of a real server process.

/** The database as the queue sees it, with every job-outcome statement failing while `cut` says so. */
function withCutOutcomes(database: Database, cut: () => boolean): Database {
  const failing = (query: (text: string, values?: unknown[]) => Promise<unknown>) => {
    return (text: string, values?: unknown[]) => {
      if (cut() && /state = 'completed'|retried_jobs/.test(text)) {
        return Promise.reject(
          Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
        );
      }
      return query(text, values);
    };
  };
  const proxy = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        if (property === 'query') return failing((value as Parameters<typeof failing>[0]).bind(object));
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });
  return {
    ...database,
    pool: database.pool ? proxy(database.pool) : undefined,
    pglite: database.pglite ? proxy(database.pglite) : undefined,
  };
}

describe('a job whose outcome cannot be recorded', () => {
  let database: Database;
  let queue: JobQueue;
  let cut = true;
  const lost: string[] = [];
  const rejections: unknown[] = [];
  const handled: string[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    database = await createTestDatabase();
    queue = createJobQueue(
      withCutOutcomes(database, () => cut),
      {
        work: true,
        pollingSeconds: 0.5,
        policies: {
          'payment-steps': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'forget-customers': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'payout-transfers': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'saved-search-matches': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'ask-matches': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
        },
        log: { error: (_obj, msg) => void lost.push(msg) },
      },
    );
    await queue.start();
    await queue.work<{ n: number; fails?: boolean }>(QUEUES.paymentSteps, async (job) => {
      handled.push(`${job.data.n}`);
      if (job.data.fails) throw new Error('the provider is down');
    });
  });

  afterAll(async () => {
    await queue?.stop();
    await database?.close();
    process.off('unhandledRejection', onRejection);
  });

  it('is logged, not left as an unhandled rejection, whether the job succeeded or threw', async () => {
    await queue.sendNow(QUEUES.paymentSteps, { n: 1 });
    queue.kick(QUEUES.paymentSteps);
    await waitFor(() => lost.length + rejections.length >= 1, 15_000, 'the completion to be cut');
    await queue.sendNow(QUEUES.paymentSteps, { n: 2, fails: true });
    queue.kick(QUEUES.paymentSteps);
    await waitFor(() => lost.length + rejections.length >= 2, 15_000, 'the failure to be cut');
    // A rejection nobody heard surfaces after the statement's answer: let a few turns pass.
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
    expect(lost).toEqual([
      'job outcome not recorded: the job runs again after it expires',
      'job outcome not recorded: the job runs again after it expires',
    ]);
  });

  it('leaves the queue working once the database answers again', async () => {
    cut = false;
    await queue.sendNow(QUEUES.paymentSteps, { n: 3 });
    queue.kick(QUEUES.paymentSteps);
    await waitFor(() => handled.includes('3'), 15_000, 'the next job to run');
    // Jobs 1 and 2 stay active until they expire (and run again); job 3's completion was recorded.
    const completed = async () => (await queue.counts()).find((row) => row.state === 'completed')?.count ?? 0;
    await waitFor(async () => (await completed()) === 1, 15_000, 'job 3 recorded as completed');
    expect((await queue.counts()).find((row) => row.state === 'active')?.count).toBe(2);
    expect(rejections).toEqual([]);
  });
});
