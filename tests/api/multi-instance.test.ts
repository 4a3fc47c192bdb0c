import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { type Database, openPostgres } from '../../src/server/db/client.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { testDatabaseName, withDatabase } from '../helpers/database-setup.ts';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process.ts';

// Two server processes on one PostgreSQL, as a load balancer would run them (issue 5): both migrate
// the same empty database at once (the migration lock serialises them), and an event written through
// one reaches a socket held by the other, through the database's LISTEN/NOTIFY. Runs in `.ci/run`
// whenever PostgreSQL answers (TEST_DATABASE_URL); the embedded database is one process by nature.

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

function listen(server: ServerProcess, cookie: string) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie } });
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
  return { socket, opened, next };
}

describe.skipIf(!url)('two server processes on one PostgreSQL', () => {
  beforeAll(async () => {
    await admin((client) => client.query(`create database ${name}`));
    const env = { DATABASE_URL: withDatabase(url!, name), SEED_DEMO: 'false', JOBS_ENABLED: 'false' };
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
});
