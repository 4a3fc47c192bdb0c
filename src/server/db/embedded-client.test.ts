import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signal } from '../../../tests/helpers/signal.ts';
import { type Database, openPglite } from './client.ts';
import type { EmbeddedClient } from './embedded-client.ts';
import { withLane } from './lanes.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

// The embedded database runs in a thread of its own; the server speaks to it in messages. These show
// that what crosses keeps PGlite's meaning: transactions, errors, notifications, dumps, and an outage
// when the thread is gone.

describe('the embedded database in its own thread', () => {
  let database: Database;
  let client: EmbeddedClient;

  beforeAll(async () => {
    database = await openPglite();
    client = database.pglite!;
    await client.exec('create table counters (name text primary key, value int not null)');
  }, 120_000);
  afterAll(() => database.close());

  it('leaves the server’s thread free while a statement runs', async () => {
    let answered = false;
    const slow = client.query('select pg_sleep(1)').then(() => {
      answered = true;
    });
    // On the server's own thread PGlite would run the statement to its end before this timer's turn.
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(answered).toBe(false);
    await slow;
    expect(answered).toBe(true);
    expect(await client.wasmMemoryBytes()).toBeGreaterThan(0);
  });

  it('reads dates and times as text through Drizzle, as from node-postgres', async () => {
    const [row] = (
      await database.db.execute<{ at: unknown; day: unknown }>(
        sql`select timestamptz '2026-12-02 10:00:00+00' as at, date '2026-12-03' as day`,
      )
    ).rows;
    expect(typeof row?.at).toBe('string');
    expect(row?.day).toBe('2026-12-03');
  });

  it('commits a transaction whose callback returns, and keeps others out until then', async () => {
    const held = signal();
    const inside = client.transaction(async (tx) => {
      await tx.query(`insert into counters values ('committed', 1)`);
      await held.done;
      await tx.query(`update counters set value = 2 where name = 'committed'`);
      return 'done';
    });
    // A statement outside waits for the transaction, as on PGlite's own thread: it sees the end.
    const outside = client.query<{ value: number }>(`select value from counters where name = 'committed'`);
    held.fire();
    expect(await inside).toBe('done');
    expect((await outside).rows).toEqual([{ value: 2 }]);
  });

  it('runs a changing request’s statement before the reads that were waiting', async () => {
    const held = signal();
    const opened = signal();
    const answered: string[] = [];
    const ask = (lane: 'read' | 'write', name: string) =>
      withLane(lane, () => client.query('select 1')).then(() => answered.push(name));
    const inside = client.transaction(async (tx) => {
      await tx.query('select 1');
      opened.fire();
      await held.done;
    });
    await opened.done;
    const reads = ['read 1', 'read 2', 'read 3', 'read 4', 'read 5'].map((name) => ask('read', name));
    const write = ask('write', 'write');
    held.fire();
    await Promise.all([inside, write, ...reads]);
    // The first read was handed to PGlite while the transaction held it; the write goes next.
    expect(answered).toEqual(['read 1', 'write', 'read 2', 'read 3', 'read 4', 'read 5']);
  });

  it('rolls back a transaction whose callback throws, and throws the callback’s own error', async () => {
    const mistake = new Error('the request changed its mind');
    await expect(
      client.transaction(async (tx) => {
        await tx.query(`insert into counters values ('rolled back', 1)`);
        throw mistake;
      }),
    ).rejects.toBe(mistake);
    const left = await client.query(`select 1 from counters where name = 'rolled back'`);
    expect(left.rows).toEqual([]);
  });

  it('keeps PostgreSQL’s fields on an error, so a unique violation is still told apart', async () => {
    await client.query(`insert into counters values ('unique', 1)`);
    const error = await client.query(`insert into counters values ('unique', 1)`).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 'counters_pkey' });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('delivers a notification before the answer of the statement that sent it', async () => {
    const heard: string[] = [];
    const unlisten = await client.listen('embedded_test', (payload) => heard.push(payload));
    await client.query(`select pg_notify('embedded_test', 'mark')`);
    expect(heard).toEqual(['mark']);
    await unlisten();
    await client.query(`select pg_notify('embedded_test', 'after')`);
    expect(heard).toEqual(['mark']);
  });

  it('dumps its data directory, which a new thread starts from', async () => {
    const dump = await client.dumpDataDir('none');
    const copy = await openPglite(undefined, dump);
    try {
      const rows = await copy.pglite!.query(`select value from counters where name = 'unique'`);
      expect(rows.rows).toEqual([{ value: 1 }]);
    } finally {
      await copy.close();
    }
  });
});

describe('an embedded database whose thread has stopped', () => {
  it('answers what was waiting, and what comes after, as an outage', async () => {
    const database = await openPglite();
    const client = database.pglite!;
    const worker = (client as unknown as { worker: import('node:worker_threads').Worker }).worker;
    const waiting = client.query('select pg_sleep(2)').catch((e: unknown) => e);
    await worker.terminate();
    const error = await waiting;
    expect(isDatabaseUnavailable(error)).toBe(true);
    const later = await client.query('select 1').catch((e: unknown) => e);
    expect(isDatabaseUnavailable(later)).toBe(true);
    expect(client.closed).toBe(true);
    await database.close();
  }, 120_000);
});
