import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { afterCommit, sqlState, transaction } from '../../src/server/db/transaction.ts';
import { wakeRunnerAfterCommit } from '../../src/server/features/payment-steps/service.ts';
import type { JobQueue } from '../../src/server/jobs/queue.ts';
import { createTestDatabase } from '../helpers/test-database.ts';

// Decision 042: the one transaction helper runs a transaction again when PostgreSQL aborted it for
// meeting another (serialization failure, deadlock), and runs what the transaction queued for after its
// commit once, after the commit only: never after a rollback, never for an attempt that was run again.

let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db().execute(sql`create table transaction_helper_rows (id int primary key, n int not null)`);
  await db().execute(sql`insert into transaction_helper_rows values (1, 0), (2, 0)`);
});

afterAll(async () => {
  await database?.close();
});

/** A real serialization failure from the database (SQLSTATE 40001), on PGlite as on PostgreSQL. */
const failToSerialize = (tx: Db) =>
  tx.execute(sql`do $$ begin raise exception 'could not serialize' using errcode = '40001'; end $$`);

/** A promise to wait on, and the call that settles it (Node 20 has no Promise.withResolvers). */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const rowsOf = async () =>
  (await db().execute<{ id: number; n: number }>(sql`select id, n from transaction_helper_rows order by id`))
    .rows;

describe('the transaction helper', () => {
  it('runs a transaction again after a serialization failure, and its after-commit work once', async () => {
    let attempts = 0;
    let ran = 0;
    const result = await transaction(db(), async (tx) => {
      attempts++;
      afterCommit(tx, () => ran++);
      await tx.execute(sql`update transaction_helper_rows set n = n + 1 where id = 1`);
      expect(ran).toBe(0);
      if (attempts < 3) await failToSerialize(tx);
      return 'done';
    });
    expect(result).toBe('done');
    expect(attempts).toBe(3);
    // The two failed attempts neither wrote nor ran their after-commit work.
    expect(ran).toBe(1);
    expect((await rowsOf())[0]!.n).toBe(1);
  });

  it('never runs after-commit work after a rollback, and keeps the error', async () => {
    let ran = 0;
    const refused = await transaction(db(), async (tx) => {
      afterCommit(tx, () => ran++);
      await tx.execute(sql`update transaction_helper_rows set n = n + 100 where id = 2`);
      throw new Error('refused');
    }).catch((error: Error) => error);
    expect(refused).toMatchObject({ message: 'refused' });
    expect(ran).toBe(0);
    expect((await rowsOf())[1]!.n).toBe(0);
  });

  it('gives up after its attempts: a site that must not run twice says attempts: 1', async () => {
    let attempts = 0;
    let ran = 0;
    const error = await transaction(
      db(),
      async (tx) => {
        attempts++;
        afterCommit(tx, () => ran++);
        await failToSerialize(tx);
      },
      { attempts: 1 },
    ).catch((e: unknown) => e);
    expect(sqlState(error)).toBe('40001');
    expect(attempts).toBe(1);
    expect(ran).toBe(0);

    attempts = 0;
    const again = await transaction(db(), async (tx) => {
      attempts++;
      afterCommit(tx, () => ran++);
      await failToSerialize(tx);
    }).catch((e: unknown) => e);
    expect(sqlState(again)).toBe('40001');
    expect(attempts).toBe(4);
    expect(ran).toBe(0);
  });

  it('wakes the payment steps runner once per commit, however many steps the transaction queued', async () => {
    const kicked: string[] = [];
    const jobs = { kick: (queue: string) => kicked.push(queue) } as unknown as JobQueue;
    await transaction(db(), async (tx) => {
      wakeRunnerAfterCommit(tx, jobs);
      wakeRunnerAfterCommit(tx, jobs);
      expect(kicked).toEqual([]);
    });
    expect(kicked).toEqual(['payment-steps']);

    await transaction(db(), async (tx) => {
      wakeRunnerAfterCommit(tx, jobs);
      throw new Error('refused');
    }).catch(() => undefined);
    expect(kicked).toEqual(['payment-steps']);
  });

  it('refuses after-commit work in a transaction it did not open, and runs it at once outside any', async () => {
    let ran = 0;
    // The rule of lint forbids this in src/server; a test may show why.
    await expect(db().transaction(async (tx) => afterCommit(tx, () => ran++))).rejects.toThrow(
      /transaction\(\)/,
    );
    afterCommit(db(), () => ran++);
    expect(ran).toBe(1);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'runs again the one of two transactions that PostgreSQL chose to end in a deadlock',
    async () => {
      await db().execute(sql`update transaction_helper_rows set n = 0`);
      const locked = { first: signal(), second: signal() };
      const attempts = { first: 0, second: 0 };
      const ran = { first: 0, second: 0 };
      // Each takes one row, waits until the other holds the other row, then asks for it: a deadlock.
      const crossing = (me: 'first' | 'second', mine: number, theirs: number) =>
        transaction(db(), async (tx) => {
          attempts[me]++;
          afterCommit(tx, () => ran[me]++);
          await tx.execute(sql`update transaction_helper_rows set n = n + 1 where id = ${mine}`);
          if (attempts[me] === 1) {
            locked[me].resolve();
            await locked[me === 'first' ? 'second' : 'first'].promise;
          }
          await tx.execute(sql`update transaction_helper_rows set n = n + 1 where id = ${theirs}`);
        });
      await Promise.all([crossing('first', 1, 2), crossing('second', 2, 1)]);
      // PostgreSQL ended one of them (40P01); it ran again and both committed, each once.
      expect(attempts.first + attempts.second).toBe(3);
      expect(ran).toEqual({ first: 1, second: 1 });
      expect(await rowsOf()).toEqual([
        { id: 1, n: 2 },
        { id: 2, n: 2 },
      ]);
    },
  );
});
