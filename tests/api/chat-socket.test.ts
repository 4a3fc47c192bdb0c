import type { Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { noticeText } from '../helpers/notice.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
let url = '';
/** The server's TCP connections, so a test can cut them as a crash or a lost network would. */
const connections = new Set<Socket>();

beforeAll(async () => {
  t.app.server.on('connection', (connection: Socket) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  url = `ws://127.0.0.1:${address.port}/ws`;
});

type Event = { type: string; [key: string]: unknown };

/** A socket that records what it receives and how it closed. */
function connect(cookie?: string, target = url, origin?: string) {
  const socket = new WebSocket(target, {
    headers: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
  });
  const events: Event[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data) => events.push(JSON.parse(String(data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', reject);
  });
  const next = async (type: string, timeoutMs = 3000): Promise<Event> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const index = events.findIndex((e) => e.type === type);
      if (index >= 0) return events.splice(index, 1)[0]!;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${type} event; got ${JSON.stringify(events)}`);
  };
  /** Until what the socket received satisfies `done`. */
  const waitFor = async (done: (events: Event[]) => boolean, timeoutMs = 10_000) => {
    for (const deadline = Date.now() + timeoutMs; !done(events); ) {
      if (Date.now() > deadline) throw new Error(`not yet: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    socket,
    events,
    closed,
    opened,
    next,
    waitFor,
    send: (payload: unknown) => socket.send(JSON.stringify(payload)),
  };
}

/** The server's answer to a sendMessage: its confirmation or its refusal. */
const isReply = (event: Event) => event.type === 'messageConfirm' || event.type === 'error';

async function conversationBetween() {
  const seller = await createSignedInUser(t.database.db);
  const buyer = await createSignedInUser(t.database.db);
  const stranger = await createSignedInUser(t.database.db);
  const item = await createItem(t.database.db, { userId: seller.user.id });
  const { conversation } = (await t.post('/api/conversations', { itemId: item.id }, buyer.cookie)).json();
  return { seller, buyer, stranger, conversationId: conversation.id as string };
}

async function messageCount(conversationId: string) {
  const { rows } = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from messages where conversation_id = ${conversationId}`,
  );
  return rows[0]!.n;
}

describe('the chat socket', () => {
  it('closes an unauthenticated or cross-site connection with a 44xx code', async () => {
    expect(await connect().closed).toBe(4401);
    const { buyer } = await conversationBetween();
    expect(await connect(buyer.cookie, url, 'https://evil.example').closed).toBe(4403);
  });

  it('accepts auth for the session’s own user and closes on impersonation or bad JSON', async () => {
    const { buyer, seller } = await conversationBetween();
    const own = connect(buyer.cookie);
    await own.opened;
    own.send({ type: 'auth', userId: buyer.user.id });
    expect(await own.next('authenticated')).toMatchObject({ userId: buyer.user.id });
    own.send({ type: 'auth', userId: seller.user.id });
    expect(await own.closed).toBe(4403);

    const garbled = connect(buyer.cookie);
    await garbled.opened;
    garbled.socket.send('{not json');
    expect(await garbled.closed).toBe(4400);
  });

  it('stores a message, confirms it to the sender and delivers it live to both people’s sockets', async () => {
    const { buyer, seller, conversationId } = await conversationBetween();
    const tab1 = connect(buyer.cookie);
    const tab2 = connect(buyer.cookie);
    const other = connect(seller.cookie);
    await Promise.all([tab1.opened, tab2.opened, other.opened]);

    tab1.send({
      type: 'sendMessage',
      conversationId,
      content: '  Is the drill still free on Saturday?  ',
      tempId: 'temp-1',
    });
    const confirm = await tab1.next('messageConfirm');
    expect(confirm).toMatchObject({
      tempId: 'temp-1',
      conversationId,
      message: { content: 'Is the drill still free on Saturday?' },
    });
    const delivered = await other.next('newMessage');
    expect(delivered).toMatchObject({ conversationId, message: { senderId: buyer.user.id } });
    expect((await tab2.next('newMessage')).message).toEqual(delivered.message);
    expect(await messageCount(conversationId)).toBe(1);
    expect((await t.get('/api/conversations/unread-count', seller.cookie)).json()).toEqual({ count: 1 });
    for (const s of [tab1, tab2, other]) s.socket.close();
  });

  it('refuses a stranger, a blank and a too-long message with an error event, storing nothing', async () => {
    const { buyer, stranger, conversationId } = await conversationBetween();
    const intruder = connect(stranger.cookie);
    const sender = connect(buyer.cookie);
    await Promise.all([intruder.opened, sender.opened]);
    intruder.send({ type: 'sendMessage', conversationId, content: 'hello', tempId: 'temp-x' });
    expect(await intruder.next('error')).toMatchObject({
      tempId: 'temp-x',
      message: 'Conversation not found.',
    });
    sender.send({ type: 'sendMessage', conversationId, content: '   ', tempId: 'temp-blank' });
    expect(await sender.next('error')).toMatchObject({ message: 'Message cannot be empty' });
    sender.send({ type: 'sendMessage', conversationId, content: 'x'.repeat(1001), tempId: 'temp-long' });
    expect(await sender.next('error')).toMatchObject({ message: 'Message too long' });
    expect(await messageCount(conversationId)).toBe(0);
    intruder.socket.close();
    sender.socket.close();
  });

  it('slows down a sender who floods the conversation', async () => {
    const { buyer, conversationId } = await conversationBetween();
    const sender = connect(buyer.cookie);
    await sender.opened;
    for (let i = 0; i < 25; i++)
      sender.send({ type: 'sendMessage', conversationId, content: `m${i}`, tempId: `temp-${i}` });
    // Every message is answered, in order: 20 confirmations, then 5 refusals.
    await sender.waitFor((events) => events.filter(isReply).length === 25);
    const replies = sender.events.filter(isReply);
    expect(replies.slice(0, 20).every((e) => e.type === 'messageConfirm')).toBe(true);
    expect(replies.slice(20).map((e) => e.message)).toEqual(
      Array(5).fill('You are sending messages too fast. Please wait a moment.'),
    );
    expect(await messageCount(conversationId)).toBe(20);
    sender.socket.close();
  });

  it('stores a burst in the order it was sent, and lists it in that order', async () => {
    const { buyer, seller, conversationId } = await conversationBetween();
    const sender = connect(buyer.cookie);
    await sender.opened;
    const sent = Array.from({ length: 15 }, (_, i) => `burst ${i + 1}`);
    for (const [i, content] of sent.entries())
      sender.send({ type: 'sendMessage', conversationId, content, tempId: `temp-${i}` });
    await sender.waitFor((events) => events.filter(isReply).length === 15);
    const confirms = sender.events.filter(isReply) as unknown as {
      message: { content: string; seq: number };
    }[];
    expect(confirms.map((e) => e.message.content)).toEqual(sent);
    const seqs = confirms.map((e) => e.message.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    const page = (await t.get(`/api/conversations/${conversationId}/messages`, seller.cookie)).json();
    expect(page.messages.map((m: { content: string }) => m.content)).toEqual(sent);
    // Older pages follow the same order, from the oldest message one has.
    const url = `/api/conversations/${conversationId}/messages`;
    const newest = (await t.get(`${url}?limit=5`, seller.cookie)).json();
    const older = (await t.get(`${url}?limit=5&before=${newest.messages[0].id}`, seller.cookie)).json();
    expect(older.messages.map((m: { content: string }) => m.content)).toEqual(sent.slice(5, 10));
    const [summary] = (await t.get('/api/conversations', seller.cookie)).json().conversations;
    expect(summary.lastMessage.content).toBe('burst 15');
    sender.socket.close();
  });

  it('gives a person one budget across all their sockets and HTTP', async () => {
    const { buyer, conversationId } = await conversationBetween();
    const { token } = await startSession(t.database.db, buyer.user.id, 30);
    const phone = connect(buyer.cookie);
    const laptop = connect(`cl_session=${token}`);
    await Promise.all([phone.opened, laptop.opened]);
    for (let i = 0; i < 8; i++) {
      phone.send({ type: 'sendMessage', conversationId, content: `phone ${i}`, tempId: `temp-p${i}` });
      laptop.send({ type: 'sendMessage', conversationId, content: `laptop ${i}`, tempId: `temp-l${i}` });
    }
    const overHttp = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post(`/api/conversations/${conversationId}/messages`, { content: `web ${i}` }, buyer.cookie),
      ),
    );
    await phone.waitFor((events) => events.filter(isReply).length === 8);
    await laptop.waitFor((events) => events.filter(isReply).length === 8);

    const refusedOverHttp = overHttp.filter((r) => r.statusCode === 429);
    const refusedOnSockets = [...phone.events, ...laptop.events].filter((e) => e.type === 'error');
    // 24 attempts, 20 allowed: whichever way they came, 4 are refused and 20 stored.
    expect(overHttp.filter((r) => r.statusCode === 201).length + refusedOverHttp.length).toBe(8);
    expect(refusedOverHttp.length + refusedOnSockets.length).toBe(4);
    expect(await messageCount(conversationId)).toBe(20);
    for (const refused of refusedOverHttp) {
      expect(refused.json()).toEqual({
        message: 'You are sending messages too fast. Please wait a moment.',
        code: 'RATE_LIMITED',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    for (const refused of refusedOnSockets)
      expect(refused.message).toBe('You are sending messages too fast. Please wait a moment.');

    // Another person's budget is their own.
    const { seller } = await conversationBetween();
    expect(
      (await t.post(`/api/conversations/${conversationId}/messages`, { content: 'Hi' }, seller.cookie))
        .statusCode,
    ).toBe(404);
    phone.socket.close();
    laptop.socket.close();
  });
});

describe('signing out', () => {
  it('closes the sockets of that session only; the person’s other devices stay connected', async () => {
    const { buyer, seller, conversationId } = await conversationBetween();
    const { token } = await startSession(t.database.db, buyer.user.id, 30);
    const laptopCookie = `cl_session=${token}`;
    const phone = connect(buyer.cookie);
    const phoneTab = connect(buyer.cookie);
    const laptop = connect(laptopCookie);
    await Promise.all([phone.opened, phoneTab.opened, laptop.opened]);

    expect((await t.post('/api/auth/logout', {}, buyer.cookie)).statusCode).toBe(200);
    expect(await phone.closed).toBe(4401);
    expect(await phoneTab.closed).toBe(4401);

    await t.post(`/api/conversations/${conversationId}/messages`, { content: 'Still there?' }, seller.cookie);
    expect((await laptop.next('newMessage')).message).toMatchObject({ content: 'Still there?' });
    expect(laptop.socket.readyState).toBe(WebSocket.OPEN);
    // The signed-out cookie no longer opens a socket; the other session still does.
    expect(await connect(buyer.cookie).closed).toBe(4401);
    laptop.socket.close();
  });
});

describe('live events on the same socket', () => {
  it('pushes a new notification with the unread count, and the count again when it is read', async () => {
    const { seller } = await conversationBetween();
    const socket = connect(seller.cookie);
    await socket.opened;
    await notificationService.notify(t.database.db, {
      userId: seller.user.id,
      type: 'system',
      text: noticeText('Welcome', 'Your campus is live.'),
    });
    const pushed = await socket.next('notification');
    expect(pushed).toMatchObject({
      unreadCount: 1,
      notification: { title: 'Welcome', message: 'Your campus is live.', isRead: false },
    });
    expect((pushed.notification as { createdAt: string }).createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    await t.post('/api/notifications/read-all', undefined, seller.cookie);
    expect(await socket.next('notificationCount')).toMatchObject({ unreadCount: 0 });
    socket.socket.close();
  });

  it('tells nobody of a notification whose transaction rolled back', async () => {
    const { seller } = await conversationBetween();
    const socket = connect(seller.cookie);
    await socket.opened;
    await t.database.db
      .transaction(async (tx) => {
        await notificationService.notify(tx, {
          userId: seller.user.id,
          type: 'system',
          text: noticeText('Never sent', 'This transaction fails.'),
        });
        throw new Error('rollback');
      })
      .catch(() => {});
    await expect(socket.next('notification', 300)).rejects.toThrow('no notification event');
    socket.socket.close();
  });

  it('raises the chat unread count live, from a socket or a REST send, and clears it when read', async () => {
    const { buyer, seller, conversationId } = await conversationBetween();
    const sellerTab = connect(seller.cookie);
    const buyerTab = connect(buyer.cookie);
    await Promise.all([sellerTab.opened, buyerTab.opened]);
    buyerTab.send({ type: 'sendMessage', conversationId, content: 'One', tempId: 'temp-1' });
    expect((await sellerTab.next('newMessage')).message).toMatchObject({ content: 'One' });
    expect(await sellerTab.next('chatUnreadCount')).toEqual({ type: 'chatUnreadCount', count: 1 });
    await t.post(`/api/conversations/${conversationId}/messages`, { content: 'Two' }, buyer.cookie);
    expect((await sellerTab.next('newMessage')).message).toMatchObject({ content: 'Two' });
    expect(await sellerTab.next('chatUnreadCount')).toEqual({ type: 'chatUnreadCount', count: 2 });
    // The sender's own count does not move for their own messages.
    expect(buyerTab.events.some((e) => e.type === 'chatUnreadCount')).toBe(false);
    await t.get(`/api/conversations/${conversationId}/messages`, seller.cookie);
    expect(await sellerTab.next('chatUnreadCount')).toEqual({ type: 'chatUnreadCount', count: 0 });
    sellerTab.socket.close();
    buyerTab.socket.close();
  });
});

describe('reconnecting after the server drops the socket', () => {
  it('lets the same session reconnect, delivers to the new socket only, and keeps what was sent meanwhile', async () => {
    const { buyer, seller, conversationId } = await conversationBetween();
    const first = connect(seller.cookie);
    await first.opened;
    // The server drops every connection without a closing handshake (a crash, a network cut).
    for (const connection of connections) connection.destroy();
    expect(await first.closed).toBe(1006);

    // While the seller is away the buyer writes; the message is stored, not lost.
    await t.post(
      `/api/conversations/${conversationId}/messages`,
      { content: 'While you were away' },
      buyer.cookie,
    );

    const second = connect(seller.cookie);
    await second.opened;
    second.send({ type: 'auth', userId: seller.user.id });
    await second.next('authenticated');
    const history = (await t.get(`/api/conversations/${conversationId}/messages`, seller.cookie)).json();
    expect(history.messages.map((m: { content: string }) => m.content)).toEqual(['While you were away']);

    const sender = connect(buyer.cookie);
    await sender.opened;
    sender.send({ type: 'sendMessage', conversationId, content: 'Back online?', tempId: 'temp-2' });
    // (On PostgreSQL the NOTIFY of the message sent while away can still be in flight as the new
    // socket subscribes, and then it arrives too; what counts is that nothing arrives twice.)
    const contents = (events: { type: string; message?: unknown }[]) =>
      events.filter((e) => e.type === 'newMessage').map((e) => (e.message as { content: string }).content);
    for (const deadline = Date.now() + 3000; !contents(second.events).includes('Back online?'); ) {
      if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify(second.events)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    // The dropped socket's subscription is gone: nothing is delivered twice, nor to the dead socket.
    await new Promise((r) => setTimeout(r, 100));
    expect(contents(second.events).filter((c) => c === 'Back online?')).toHaveLength(1);
    expect(contents(first.events)).toEqual([]);
    second.socket.close();
    sender.socket.close();
  });
});

describe('heartbeats', () => {
  it('drop a socket that stops answering pings, and keep one that answers', async () => {
    const app = await buildApp({
      config: testConfig({ webDir: '/nonexistent', wsHeartbeatMs: 100 }),
      database: t.database,
      logger: false,
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const target = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`;
      const { buyer, seller } = await conversationBetween();
      const healthy = connect(buyer.cookie, target);
      // A phone gone to sleep: the connection stays up but nothing answers the server's pings.
      const asleep = new WebSocket(target, { headers: { cookie: seller.cookie }, autoPong: false });
      const asleepClosed = new Promise<number>((resolve) => asleep.on('close', (code) => resolve(code)));
      await healthy.opened;
      expect(await asleepClosed).toBe(1006);
      await new Promise((r) => setTimeout(r, 300));
      expect(healthy.socket.readyState).toBe(WebSocket.OPEN);
      healthy.socket.close();
    } finally {
      await app.close();
    }
  });
});
