import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/client.ts';
import { eraseUser } from '../../src/server/features/account/leaving-queries.ts';
import { endAllSessions, endSession } from '../../src/server/features/auth/service.ts';
import { setUserSuspended } from '../../src/server/features/moderation/queries.ts';
import { createItem, createSignedInUser, TEST_PASSWORD } from '../factories.ts';
import { ORIGIN, setupTestApp } from '../helpers/test-app.ts';
import { eventually } from '../helpers/wait-for.ts';

// Decision 037: a session that ends (signed out, suspended, deleted) while its announcement cannot
// reach this instance (the live events' LISTEN connection is down) must not leave its open socket able
// to send, and once the hub hears again, the sockets of every session gone are closed.

type Event = { type: string; [key: string]: unknown };

/** A socket that records what it receives and how it closed. */
function connect(url: string, cookie: string) {
  const socket = new WebSocket(url, { headers: { cookie } });
  const events: Event[] = [];
  let code: number | undefined;
  const closed = new Promise<number>((resolve) =>
    socket.on('close', (c) => {
      code = c;
      resolve(c);
    }),
  );
  socket.on('message', (data) => events.push(JSON.parse(String(data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', reject);
  });
  return {
    socket,
    events,
    closed,
    opened,
    closedWith: () => code,
    send: (payload: unknown) => socket.send(JSON.stringify(payload)),
  };
}

/** The socket's answer to a sendMessage: refused by closing, or answered (confirmed or not). */
async function answerTo(peer: ReturnType<typeof connect>) {
  return eventually(() => {
    const reply = peer.events.find((e) => e.type === 'messageConfirm' || e.type === 'error');
    if (reply) return reply.type;
    if (peer.closedWith() !== undefined) return `closed ${peer.closedWith()}`;
    throw new Error('no answer yet');
  });
}

async function messageCount(db: Db, conversationId: string) {
  const { rows } = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from messages where conversation_id = ${conversationId}`,
  );
  return rows[0]!.n;
}

/**
 * Runs `end` with the database's announcements off (triggers do not fire), as a session ends while the
 * hub cannot hear it: no `sessionEnded` reaches any socket.
 */
function unannounced(db: Db, end: (tx: Db) => Promise<unknown>) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await end(tx);
  });
}

describe('a session that ends without its announcement reaching the socket', () => {
  // Caches off, as while the hub is down (the read caches hold nothing then).
  const t = setupTestApp({ readCacheMs: 0 });
  let url = '';
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;
  });

  async function chat() {
    const seller = await createSignedInUser(t.database.db);
    const buyer = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, { userId: seller.user.id });
    const { conversation } = (await t.post('/api/conversations', { itemId: item.id }, buyer.cookie)).json();
    return { seller, buyer, conversationId: conversation.id as string };
  }

  it.each([
    ['signed out', (tx: Db, buyer: { token: string; id: string }) => endSession(tx, buyer.token)],
    [
      'suspended',
      async (tx: Db, buyer: { token: string; id: string }) => {
        await setUserSuspended(tx, buyer.id, true);
        await endAllSessions(tx, buyer.id);
      },
    ],
    [
      'deleted',
      async (tx: Db, buyer: { token: string; id: string }) => {
        await endAllSessions(tx, buyer.id);
        await eraseUser(tx, buyer.id, new Date());
      },
    ],
  ])('closes the socket of a person %s at their next message, storing nothing', async (_, end) => {
    const { buyer, conversationId } = await chat();
    const socket = connect(url, buyer.cookie);
    await socket.opened;
    socket.send({ type: 'sendMessage', conversationId, content: 'Before', tempId: 'temp-1' });
    expect(await answerTo(socket)).toBe('messageConfirm');

    const token = buyer.cookie.split('=')[1]!;
    await unannounced(t.database.db, (tx) => end(tx, { token, id: buyer.user.id }));
    socket.events.length = 0;
    socket.send({ type: 'sendMessage', conversationId, content: 'After', tempId: 'temp-2' });
    expect(await answerTo(socket)).toBe('closed 4401');
    expect(await messageCount(t.database.db, conversationId)).toBe(1);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('a live-events connection that is down while sessions end', () => {
  const t = setupTestApp();
  /** An instance whose LISTEN connection the test cuts and keeps from coming back. */
  let app: App;
  let blocked = false;
  let wsUrl = '';
  /** Inside the app's database, to cut the listener's connection. */
  let inside: pg.Client;

  const inject = (method: 'GET' | 'POST', path: string, cookie?: string, payload?: object) =>
    app.inject({
      method,
      url: path,
      headers: { origin: ORIGIN, host: 'localhost:80', ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    const real = t.database.newClient!;
    app = await buildApp({
      config: testConfig({ webDir: '/nonexistent' }),
      database: {
        ...t.database,
        // While blocked, the hub's reconnections fail as they would with the database unreachable.
        newClient: () =>
          blocked ? new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/none' }) : real(),
      },
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`;
    const { rows } = await t.database.db.execute<{ name: string }>(sql`select current_database() as name`);
    const target = new URL(url!);
    target.pathname = `/${rows[0]!.name}`;
    inside = new pg.Client({ connectionString: target.toString() });
    await inside.connect();
  });

  afterAll(async () => {
    await app?.close();
    await inside?.end();
  });

  it('refuses to send for a session ended meanwhile, and closes the ended sessions’ sockets once it hears again', async () => {
    const db = t.database.db;
    const seller = await createSignedInUser(db);
    const leaving = await createSignedInUser(db);
    const suspended = await createSignedInUser(db);
    const deleting = await createSignedInUser(db);
    const item = await createItem(db, { userId: seller.user.id });
    const conversation = await inject('POST', '/api/conversations', leaving.cookie, { itemId: item.id });
    const conversationId = conversation.json().conversation.id as string;

    const sender = connect(wsUrl, leaving.cookie);
    const idleSuspended = connect(wsUrl, suspended.cookie);
    const idleDeleted = connect(wsUrl, deleting.cookie);
    const staying = connect(wsUrl, seller.cookie);
    await Promise.all([sender.opened, idleSuspended.opened, idleDeleted.opened, staying.opened]);

    blocked = true;
    await inside.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`,
    );
    await eventually(async () =>
      expect((await inject('GET', '/api/ready')).json()).toMatchObject({ hub: 'down' }),
    );

    // While the hub is down: a sign-out, a suspension and a deletion, none of them announced here.
    expect((await inject('POST', '/api/auth/logout', leaving.cookie, {})).statusCode).toBe(200);
    await db.transaction(async (tx) => {
      await setUserSuspended(tx, suspended.user.id, true);
      await endAllSessions(tx, suspended.user.id);
    });
    const deletion = await inject('POST', '/api/account/delete', deleting.cookie, {
      currentPassword: TEST_PASSWORD,
    });
    expect(deletion.statusCode).toBe(200);

    sender.send({ type: 'sendMessage', conversationId, content: 'Signed out already', tempId: 'temp-1' });
    expect(await answerTo(sender)).toBe('closed 4401');
    expect(await messageCount(db, conversationId)).toBe(0);

    blocked = false;
    await eventually(async () =>
      expect((await inject('GET', '/api/ready')).json()).toMatchObject({ hub: 'up' }),
    );
    expect(await idleSuspended.closed).toBe(4401);
    expect(await idleDeleted.closed).toBe(4401);
    // A session that stands keeps its socket, told to fetch afresh.
    await eventually(() => expect(staying.events.some((e) => e.type === 'resync')).toBe(true));
    expect(staying.socket.readyState).toBe(WebSocket.OPEN);
    staying.socket.close();
  });
});
