import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
let url = '';

beforeAll(async () => {
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
  return {
    socket,
    events,
    closed,
    opened,
    next,
    send: (payload: unknown) => socket.send(JSON.stringify(payload)),
  };
}

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
    expect((await sender.next('error')).message).toBe(
      'You are sending messages too fast. Please wait a moment.',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await messageCount(conversationId)).toBe(20);
    sender.socket.close();
  });
});

describe('two server instances on one PostgreSQL', () => {
  const second: { app?: Awaited<ReturnType<typeof buildApp>>; url?: string } = {};
  beforeAll(async () => {
    if (t.database.kind !== 'postgres') return;
    second.app = await buildApp({
      config: testConfig({ webDir: '/nonexistent' }),
      database: t.database,
      logger: false,
    });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    second.url = `ws://127.0.0.1:${(second.app.server.address() as { port: number }).port}/ws`;
  });
  afterAll(async () => {
    await second.app?.close();
  });

  it('delivers a message sent through one instance to a socket on the other (LISTEN/NOTIFY)', async () => {
    if (t.database.kind !== 'postgres') return; // The embedded database is one process by nature.
    const { buyer, seller, conversationId } = await conversationBetween();
    const sender = connect(buyer.cookie);
    const receiver = connect(seller.cookie, second.url);
    await Promise.all([sender.opened, receiver.opened]);
    sender.send({ type: 'sendMessage', conversationId, content: 'Across instances', tempId: 'temp-1' });
    expect(await receiver.next('newMessage')).toMatchObject({ message: { content: 'Across instances' } });
    sender.socket.close();
    receiver.socket.close();
  });
});
