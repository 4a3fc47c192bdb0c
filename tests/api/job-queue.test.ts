import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../../src/server/db/client.ts';
import { createJobQueue } from '../../src/server/jobs/queue.ts';
import { testDatabaseName, withDatabase } from '../helpers/database-setup.ts';

// Several instances started together on an empty PostgreSQL (a deploy of N at once): each installs the
// job queue's schema or finds it installed, and none fails to start. pg-boss's own lock is
// taken too late for that; ours is around the whole start (jobs/queue.ts).

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('the job queue on a shared PostgreSQL', () => {
  it('starts four instances at once on an empty database, each migrating first as a server does', async () => {
    const name = testDatabaseName(inject('testDatabasePrefix'), 'jobs');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const databases = Array.from({ length: 4 }, () => openPostgres(withDatabase(url!, name), 3));
    const queues = databases.map((database) =>
      createJobQueue(database, {
        work: false,
        pollingSeconds: 2,
        policies: {
          'payment-steps': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'forget-customers': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'payout-transfers': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'saved-search-matches': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
          'ask-matches': { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 60 },
        },
        log: { error: () => {} },
      }),
    );
    try {
      const started = await Promise.allSettled(
        queues.map(async (queue, i) => {
          await databases[i]!.migrate();
          await queue.start();
        }),
      );
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(
        Array(4).fill('started'),
      );
      expect(await queues[0]!.size('payment-steps')).toBe(0);
    } finally {
      await Promise.all(queues.map((queue) => queue.stop()));
      await Promise.all(databases.map((database) => database.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
