import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type Database, openPostgres } from '../../src/server/db/client.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { testDatabaseName, withDatabase } from '../helpers/database-setup.ts';
import { startReverseProxy } from '../helpers/reverse-proxy.ts';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process.ts';
import { eventually } from '../helpers/wait-for.ts';

// Two server processes on one PostgreSQL, as a load balancer would run them: both migrate
// the same empty database at once (the migration lock serialises them), and an event written through
// one reaches a socket held by the other, through the database's LISTEN/NOTIFY; and behind a round-robin
// load balancer (tests/helpers/reverse-proxy.ts), one person signs in on one instance and chats live on
// the other, with no sticky sessions (docs/deploy.md). Runs in `.ci/run` whenever PostgreSQL answers
// (TEST_DATABASE_URL); the embedded database is one process by nature.

const url = process.env.TEST_DATABASE_URL;
const name = testDatabaseName(inject('testDatabasePrefix'), 'multi');
let servers: ServerProcess[] = [];
let database: Database | undefined;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Where requests go: a server process, or the load balancer in front of both. */
type Address = Pick<ServerProcess, 'url'>;

function listen(server: Address, cookie: string) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, {
    headers: { cookie, origin: server.url },
  });
  const events: { type: string; [key: string]: unknown }[] = [];
  socket.on('message', (data) => events.push(JSON.parse(String(data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', reject);
  });
  const next = async (type: string) => {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
      const index = events.findIndex((e) => e.type === type);
      if (index >= 0) return events.splice(index, 1)[0]!;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no ${type} event; got ${JSON.stringify(events)}`);
  };
  const seen = (type: string, match: (event: { [key: string]: unknown }) => boolean = () => true) =>
    events.some((e) => e.type === type && match(e));
  return { socket, opened, next, seen };
}

function post(server: Address, route: string, body: unknown, cookie = '') {
  return fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: server.url },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!url)('two server processes on one PostgreSQL', () => {
  beforeAll(async () => {
    await admin((client) => client.query(`create database ${name}`));
    const env = {
      DATABASE_URL: withDatabase(url!, name),
      SEED_DEMO: 'false',
      JOBS_ENABLED: 'false',
      // As behind a load balancer (the last test puts one in front).
      TRUST_PROXY: 'true',
      // The catalogue's replica is the database itself here: the routing is exercised, not a lag.
      DATABASE_REPLICA_URL: withDatabase(url!, name),
      DATABASE_POOL_SIZE: '4',
      DATABASE_WRITE_POOL_SIZE: '2',
    };
    servers = await Promise.all([startServer(env, 90_000), startServer(env, 90_000)]);
    database = openPostgres(withDatabase(url!, name), 2);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => stopServer(s.process)));
    await database?.close();
    await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });

  it('delivers a message and the unread count sent through one process to a socket on the other', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const seller = await createSignedInUser(database!.db);
    const buyer = await createSignedInUser(database!.db);
    const item = await createItem(database!.db, { userId: seller.user.id });
    const call = (server: ServerProcess, route: string, body: unknown, cookie: string) =>
      fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: server.url },
        body: JSON.stringify(body),
      });

    const { conversation } = await (
      await call(first, '/api/conversations', { itemId: item.id }, buyer.cookie)
    ).json();
    const receiver = listen(second, seller.cookie);
    const sender = listen(first, buyer.cookie);
    await Promise.all([receiver.opened, sender.opened]);

    sender.socket.send(
      JSON.stringify({
        type: 'sendMessage',
        conversationId: conversation.id,
        content: 'Across processes',
        tempId: 'temp-1',
      }),
    );
    expect(await sender.next('messageConfirm')).toMatchObject({ tempId: 'temp-1' });
    // The sender's own tabs hear of it too.
    expect(await sender.next('newMessage')).toMatchObject({ message: { content: 'Across processes' } });
    expect(await receiver.next('newMessage')).toMatchObject({
      conversationId: conversation.id,
      message: { content: 'Across processes', senderId: buyer.user.id },
    });
    expect(await receiver.next('chatUnreadCount')).toEqual({ type: 'chatUnreadCount', count: 1 });

    // And the other way: a REST send through the second process reaches the buyer on the first.
    const reply = await call(
      second,
      `/api/conversations/${conversation.id}/messages`,
      { content: 'Got it' },
      seller.cookie,
    );
    expect(reply.status).toBe(201);
    expect(await sender.next('newMessage')).toMatchObject({ message: { content: 'Got it' } });
    receiver.socket.close();
    sender.socket.close();
  });

  it('closes a signed-out session’s sockets on the other process, and only that session’s', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const person = await createSignedInUser(database!.db);
    const { token } = await startSession(database!.db, person.user.id, 30);
    const phone = listen(second, person.cookie);
    const laptop = listen(second, `cl_session=${token}`);
    await Promise.all([phone.opened, laptop.opened]);
    const phoneClosed = new Promise<number>((resolve) => phone.socket.once('close', resolve));

    expect((await post(first, '/api/auth/logout', {}, person.cookie)).status).toBe(200);
    expect(await phoneClosed).toBe(4401);
    // The laptop's session lives on: its socket still answers.
    laptop.socket.send(JSON.stringify({ type: 'auth', userId: person.user.id }));
    expect(await laptop.next('authenticated')).toMatchObject({ userId: person.user.id });
    laptop.socket.close();
  });

  it('survives every backend of the app being terminated under load, and meets again after', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const seller = await createSignedInUser(database!.db);
    const buyer = await createSignedInUser(database!.db);
    const item = await createItem(database!.db, { userId: seller.user.id });
    const { conversation } = await (
      await post(first, '/api/conversations', { itemId: item.id }, buyer.cookie)
    ).json();
    const receiver = listen(second, seller.cookie);
    await receiver.opened;

    // Load on both processes: reads (cached and not), sign-in checks and chat writes.
    const statuses: number[] = [];
    const failures: unknown[] = [];
    let loading = true;
    const load = async (server: ServerProcess, n: number) => {
      for (let i = 0; loading; i++) {
        const calls = [
          fetch(`${server.url}/api/items?campus=all`),
          fetch(`${server.url}/api/items/${item.id}`),
          fetch(`${server.url}/api/conversations/unread-count`, { headers: { cookie: seller.cookie } }),
          post(
            server,
            `/api/conversations/${conversation.id}/messages`,
            { content: `load ${n}.${i}` },
            buyer.cookie,
          ),
        ];
        for (const call of await Promise.allSettled(calls)) {
          if (call.status === 'fulfilled') statuses.push(call.value.status);
          else failures.push(call.reason);
        }
      }
    };
    const running = [load(first, 1), load(second, 2), load(first, 3), load(second, 4)];
    await new Promise((r) => setTimeout(r, 300));
    for (let round = 0; round < 3; round++) {
      await admin((client) =>
        client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        ),
      );
      await new Promise((r) => setTimeout(r, 200));
    }
    loading = false;
    await Promise.all(running);

    // Both processes are alive and answered every request: a success, a refused chat burst (the load
    // sends faster than the per-person limit), or a clean 503; never a crash nor a 500.
    for (const server of servers) expect(server.process.exitCode).toBeNull();
    expect(failures).toEqual([]);
    expect(statuses.filter((s) => ![200, 201, 429, 503].includes(s))).toEqual([]);
    for (const server of [first, second]) {
      await eventually(async () => expect((await fetch(`${server.url}/api/ready`)).status).toBe(200));
    }

    // After recovery a write through one process reaches a socket held by the other within a second.
    await eventually(async () => expect(receiver.seen('resync')).toBe(true));
    // (The seller writes: the load spent the buyer's chat budget. Both people's sockets get it.)
    const sentAt = Date.now();
    const reply = await post(
      first,
      `/api/conversations/${conversation.id}/messages`,
      { content: 'Recovered' },
      seller.cookie,
    );
    expect(reply.status).toBe(201);
    await eventually(
      async () =>
        expect(
          receiver.seen('newMessage', (e) => (e.message as { content: string }).content === 'Recovered'),
        ).toBe(true),
      1000,
    );
    expect(Date.now() - sentAt).toBeLessThan(1000);
    receiver.socket.close();
  }, 60_000);

  it('serves one person through a load balancer without sticky sessions: signed in on one instance, live on the other', async () => {
    const proxy = await startReverseProxy(servers.map((s) => s.url));
    try {
      const seller = await createUser(database!.db);
      const buyer = await createUser(database!.db);
      const item = await createItem(database!.db, { userId: seller.id });
      const signIn = async (person: { email: string; password: string }) => {
        const response = await post(proxy, '/api/auth/login', {
          email: person.email,
          password: person.password,
        });
        expect(response.status).toBe(200);
        return response.headers
          .getSetCookie()
          .find((c) => c.startsWith('cl_session='))!
          .split(';')[0]!;
      };

      // Turn by turn: the buyer signs in on the first instance, their socket lands on the second, the
      // seller signs in on the first, the buyer's question on the second, the seller's answer on the first.
      const buyerCookie = await signIn(buyer);
      const buyerLive = listen(proxy, buyerCookie);
      await buyerLive.opened;
      const sellerCookie = await signIn(seller);
      const started = await post(proxy, '/api/conversations', { itemId: item.id }, buyerCookie);
      expect(started.status).toBeLessThan(300);
      const { conversation } = await started.json();
      const answer = await post(
        proxy,
        `/api/conversations/${conversation.id}/messages`,
        { content: 'Yes, it is still available' },
        sellerCookie,
      );
      expect(answer.status).toBe(201);

      expect(proxy.served.map((s) => [s.method, s.path.split('?')[0], s.instance, s.upgrade])).toEqual([
        ['POST', '/api/auth/login', 0, false],
        ['GET', '/ws', 1, true],
        ['POST', '/api/auth/login', 0, false],
        ['POST', '/api/conversations', 1, false],
        ['POST', `/api/conversations/${conversation.id}/messages`, 0, false],
      ]);
      // The answer, written through the first instance, reaches the buyer's socket on the second.
      expect(await buyerLive.next('newMessage')).toMatchObject({
        conversationId: conversation.id,
        message: { content: 'Yes, it is still available', senderId: seller.id },
      });
      buyerLive.socket.close();
    } finally {
      await proxy.close();
    }
  });

  it('holds one chat budget per person across both instances, under concurrent sends', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const seller = await createSignedInUser(database!.db);
    const buyer = await createSignedInUser(database!.db);
    const item = await createItem(database!.db, { userId: seller.user.id });
    const started = await post(first, '/api/conversations', { itemId: item.id }, buyer.cookie);
    const { conversation } = (await started.json()) as { conversation: { id: string } };
    // 30 at once, half through each instance: 20 are stored, whichever instance took them.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(
          i % 2 ? first : second,
          `/api/conversations/${conversation.id}/messages`,
          { content: `m${i}` },
          buyer.cookie,
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const stored = await database!.db.execute<{ n: number }>(
      sql`select count(*)::int as n from messages where conversation_id = ${conversation.id}`,
    );
    expect(stored.rows[0]?.n).toBe(20);
    // Nothing was written to count them.
    const counters = await database!.db.execute<{ n: number }>(
      sql`select count(*)::int as n from rate_limits where key = ${`chat-send:${buyer.user.id}`}`,
    );
    expect(counters.rows[0]?.n).toBe(0);
  });

  it('tells a search remembered on one process of a listing made through the other, at once', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const owner = await createSignedInUser(database!.db);
    const template = await createItem(database!.db, { userId: owner.user.id, title: 'Told canoe paddle' });
    const titles = async () =>
      (
        (await (await fetch(`${second.url}/api/items?campus=all&searchQuery=canoe%20paddle`)).json()) as {
          items: { title: string }[];
        }
      ).items
        .map((item) => item.title)
        .sort();
    await vi.waitFor(async () => expect(await titles()).toEqual(['Told canoe paddle']), { timeout: 5000 });
    const listed = await post(
      first,
      '/api/items',
      {
        title: 'Spare canoe paddle',
        description: template.description,
        category: template.category,
        condition: template.condition,
        images: [],
        pickupMethod: template.pickupMethod,
        availableFrom: template.availableFrom,
        availableDays: template.availableDays,
      },
      owner.cookie,
    );
    expect(listed.status).toBe(201);
    // Searches keep their answers ten minutes now; the listing still shows within moments.
    await vi.waitFor(
      async () => expect(await titles()).toEqual(['Spare canoe paddle', 'Told canoe paddle']),
      { timeout: 5000, interval: 50 },
    );
  });

  it('answers the catalogue from the replica setting, and the writer from the primary', async () => {
    const [first] = servers as [ServerProcess, ServerProcess];
    const owner = await createSignedInUser(database!.db);
    const item = await createItem(database!.db, { userId: owner.user.id, title: 'Replica kayak' });
    const page = await fetch(`${first.url}/api/items/${item.id}`);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { item: { title: string } }).item.title).toBe('Replica kayak');
    expect(page.headers.get('server-timing')).toMatch(/desc="replica checkouts=\d+ /);
    const list = await fetch(`${first.url}/api/items?campus=all&searchQuery=kayak`);
    expect(list.headers.get('server-timing')).toMatch(/desc="replica /);
  });
});
