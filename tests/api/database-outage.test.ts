import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { itemSearchQuery } from '#shared/schemas/items.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { isDatabaseUnavailable } from '../../src/server/db/unavailable.ts';
import { itemService } from '../../src/server/features/items/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { withDatabase } from '../helpers/database-setup.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { eventually } from '../helpers/wait-for.ts';

// A PostgreSQL that drops the app's connections (a restart, a failover, an administrator's
// pg_terminate_backend) must not take the process down: queries that fail on it answer 503,
// GET /api/ready says what is down, the live events' connection comes back by itself, and nothing the
// read caches remembered from before the gap is served after it.

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('a database that drops the app’s connections', () => {
  const t = setupTestApp();
  let name = '';
  /** On the server's own database, to change the app's database's settings. */
  let server: pg.Client;
  /** Inside the app's database, spared when the others are terminated. */
  let inside: pg.Client;

  const terminateTheApp = () =>
    inside.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );

  beforeAll(async () => {
    const { rows } = await t.database.db.execute<{ name: string }>(sql`select current_database() as name`);
    name = rows[0]!.name;
    server = new pg.Client({ connectionString: url });
    inside = new pg.Client({ connectionString: withDatabase(url!, name) });
    await Promise.all([server.connect(), inside.connect()]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await server?.query(`alter database ${name} allow_connections true`).catch(() => {});
    await Promise.all([server?.end(), inside?.end()]);
  });

  it('fails a transaction whose connection is terminated, without an uncaught error', async () => {
    const failure = await t.database.db
      .transaction(async (tx) => {
        const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        await inside.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        // The server's goodbye reaches the idle client between two statements of the transaction.
        await new Promise((r) => setTimeout(r, 100));
        await tx.execute(sql`select 1`);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // The pool replaced the connection.
    expect((await t.get('/api/health')).statusCode).toBe(200);
    await eventually(async () => expect((await t.get('/api/ready')).statusCode).toBe(200));
  });

  it('answers 503 for a list whose page and count are cut off mid-statement, keeps nothing, then counts right', async () => {
    const owner = await createSignedInUser(t.database.db);
    for (const n of [1, 2, 3])
      await createItem(t.database.db, {
        userId: owner.user.id,
        title: `Cut kettle ${n}`,
        category: 'kitchen',
      });
    const query = { campus: 'stanford.edu', category: 'kitchen' };
    const path = (page: number) =>
      `/api/items?${new URLSearchParams({ ...query, limit: '1', page: String(page) })}`;
    const counted = await itemService.count(
      t.database.db,
      itemSearchQuery.parse(query),
      t.config.campusTimeZone,
    );
    // The counters are locked, so the list's one statement (page and count) waits on them mid-way.
    const locker = new pg.Client({ connectionString: withDatabase(url!, name) });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table item_counts in access exclusive mode');
      const pending = t.get(path(1));
      const waiting = () =>
        inside.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and pid <> $2`,
          [name, (locker as unknown as { processID: number }).processID],
        );
      await eventually(async () => expect((await waiting()).rows.length).toBeGreaterThan(0));
      for (const { pid } of (await waiting()).rows)
        await inside.query('select pg_terminate_backend($1)', [pid]);
      const cut = await pending;
      expect(cut.statusCode, cut.body).toBe(503);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    // Nothing of the cut statement was remembered: both pages count afresh, and right.
    for (const page of [1, 2]) {
      const again = await t.get(path(page));
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject(counted);
    }
    expect(counted.total).toBeGreaterThanOrEqual(3);
  });

  it('answers 503 while down, says what is down, and after the gap serves nothing stale', async () => {
    const seller = await createSignedInUser(t.database.db);
    const buyer = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, { userId: seller.user.id, title: 'Camping stove' });
    const { conversation } = (await t.post('/api/conversations', { itemId: item.id }, buyer.cookie)).json();
    // The item page is remembered now.
    for (let i = 0; i < 2; i++)
      expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Camping stove');
    const { port } = t.app.server.address() as { port: number };
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie: seller.cookie } });
    const events: { type: string; [key: string]: unknown }[] = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));

    await server.query(`alter database ${name} allow_connections false`);
    await terminateTheApp();

    const ready = await eventually(async () => {
      const response = await t.get('/api/ready');
      expect(response.json()).toMatchObject({ database: 'down', hub: 'down' });
      return response;
    });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      database: 'down',
      hub: 'down',
      jobs: 'down',
      message: 'Not ready: the database, live events and the job queue are down.',
      code: 'NOT_READY',
    });
    const page = await t.get(`/api/items/${item.id}`);
    expect(page.statusCode).toBe(503);
    expect(page.json()).toEqual({
      message: 'CampusLoop is briefly unavailable. Please try again in a moment.',
      code: 'UNAVAILABLE',
    });
    expect(page.headers['retry-after']).toBe('1');
    expect((await t.get('/api/conversations/unread-count', seller.cookie)).statusCode).toBe(503);
    // Alive all the same: restarting the process would not bring the database back.
    expect((await t.get('/api/health')).statusCode).toBe(200);

    // A change nobody hears of: the app's connections are gone, the announcement is lost.
    await inside.query('update items set title = $1 where id = $2', ['Camping stove (2 burners)', item.id]);
    await server.query(`alter database ${name} allow_connections true`);

    const back = await eventually(async () => {
      const response = await t.get('/api/ready');
      expect(response.statusCode).toBe(200);
      return response;
    });
    expect(back.json()).toEqual({ status: 'ready', database: 'up', hub: 'up', jobs: 'up' });
    expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Camping stove (2 burners)');
    // Open pages are told to fetch afresh, and live events flow again.
    await eventually(async () => expect(events.some((e) => e.type === 'resync')).toBe(true), 5000);
    const sent = await t.post(
      `/api/conversations/${conversation.id}/messages`,
      { content: 'Back?' },
      buyer.cookie,
    );
    expect(sent.statusCode).toBe(201);
    await eventually(
      async () =>
        expect(
          events.some(
            (e) => e.type === 'newMessage' && (e.message as { content: string }).content === 'Back?',
          ),
        ).toBe(true),
      1000,
    );
    socket.close();
    expect(
      (await t.database.db.select({ title: items.title }).from(items).where(eq(items.id, item.id)))[0]?.title,
    ).toBe('Camping stove (2 burners)');
  });
});
