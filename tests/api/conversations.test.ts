import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import type { Database } from '../../src/server/db/client.ts';
import { messages } from '../../src/server/db/schema/chat.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { conversationService } from '../../src/server/features/conversations/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { ORIGIN, setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();

/** A seller with an item, a buyer, and the conversation the buyer opened about it. */
async function chat(title = 'Cordless drill') {
  const seller = await createSignedInUser(t.database.db);
  const buyer = await createSignedInUser(t.database.db);
  const item = await createItem(t.database.db, { userId: seller.user.id, title });
  const response = await t.post('/api/conversations', { itemId: item.id }, buyer.cookie);
  expect(response.statusCode).toBe(200);
  const conversationId: string = response.json().conversation.id;
  return { seller, buyer, item, conversationId };
}

const send = (conversationId: string, content: unknown, cookie: string) =>
  t.post(`/api/conversations/${conversationId}/messages`, { content }, cookie);

async function storedCount(conversationId: string) {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .where(eq(messages.conversationId, conversationId));
  return row!.n;
}

describe('starting a conversation', () => {
  it('opens one between the caller (buyer) and the item’s owner (seller), and reuses it', async () => {
    const { seller, buyer, item, conversationId } = await chat('Tent');
    const again = await t.post('/api/conversations', { itemId: item.id }, buyer.cookie);
    expect(again.statusCode).toBe(200);
    const conversation = again.json().conversation;
    expect(conversation).toMatchObject({
      id: conversationId,
      itemId: item.id,
      buyerId: buyer.user.id,
      sellerId: seller.user.id,
      otherUser: { id: seller.user.id, fullName: seller.user.fullName, username: seller.user.username },
      item: { id: item.id, title: 'Tent' },
      unreadCount: 0,
      lastMessage: null,
    });
    // Concurrent starts still end on one conversation.
    const other = await createSignedInUser(t.database.db);
    const ids = await Promise.all(
      [1, 2, 3].map(() => conversationService.start(t.database.db, other.user.id, item.id)),
    );
    expect(new Set(ids.map((c) => c.id)).size).toBe(1);
    expect(ids[0]!.id).not.toBe(conversationId);
  });

  it('refuses a chat about one’s own item, and a missing or deleted item', async () => {
    const seller = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, { userId: seller.user.id });
    const own = await t.post('/api/conversations', { itemId: item.id }, seller.cookie);
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('You cannot start a chat about your own item.');

    const buyer = await createSignedInUser(t.database.db);
    const missing = await t.post(
      '/api/conversations',
      { itemId: '00000000-0000-4000-8000-000000000000' },
      buyer.cookie,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Item not found.');

    await t.database.db.update(items).set({ deletedAt: new Date() }).where(eq(items.id, item.id));
    const deleted = await t.post('/api/conversations', { itemId: item.id }, buyer.cookie);
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json().message).toBe('Item not found.');
    expect((await t.get('/api/conversations', buyer.cookie)).json().conversations).toEqual([]);
  });
});

describe('messages', () => {
  it('stores a trimmed message for either party and lists it', async () => {
    const { seller, buyer, conversationId } = await chat();
    const sent = await send(conversationId, '  Is it still available?  ', buyer.cookie);
    expect(sent.statusCode).toBe(201);
    expect(sent.json().message).toMatchObject({
      conversationId,
      senderId: buyer.user.id,
      content: 'Is it still available?',
      isRead: false,
    });
    expect((await send(conversationId, 'Yes!', seller.cookie)).statusCode).toBe(201);
    const page = (await t.get(`/api/conversations/${conversationId}/messages`, buyer.cookie)).json();
    expect(page.hasMore).toBe(false);
    expect(page.messages.map((m: { content: string }) => m.content)).toEqual([
      'Is it still available?',
      'Yes!',
    ]);
  });

  it('refuses blank and over-long messages with the spec’s messages, storing nothing', async () => {
    const { buyer, conversationId } = await chat();
    for (const [content, message] of [
      ['', 'Message cannot be empty'],
      ['   ', 'Message cannot be empty'],
      ['x'.repeat(1001), 'Message too long'],
    ] as const) {
      const response = await send(conversationId, content, buyer.cookie);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const noContent = await t.post(`/api/conversations/${conversationId}/messages`, {}, buyer.cookie);
    expect(noContent.statusCode).toBe(400);
    expect(noContent.json().message).toBe('Message cannot be empty');
    // The service (which the socket uses) applies the same rules.
    await expect(
      conversationService.sendMessage(t.database.db, buyer.user.id, conversationId, ' '),
    ).rejects.toMatchObject({ statusCode: 400, message: 'Message cannot be empty' });
    expect((await send(conversationId, 'x'.repeat(1000), buyer.cookie)).statusCode).toBe(201);
    expect(await storedCount(conversationId)).toBe(1);
  });

  it('is a 404 for anyone but the two people, and stores nothing', async () => {
    const { buyer, conversationId } = await chat();
    await send(conversationId, 'Hello', buyer.cookie);
    const stranger = await createSignedInUser(t.database.db);
    const read = await t.get(`/api/conversations/${conversationId}/messages`, stranger.cookie);
    expect(read.statusCode).toBe(404);
    expect(read.json().message).toBe('Conversation not found.');
    const write = await send(conversationId, 'Sneaky', stranger.cookie);
    expect(write.statusCode).toBe(404);
    expect(write.json().message).toBe('Conversation not found.');
    const unknown = await send('00000000-0000-4000-8000-000000000000', 'Hi', buyer.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(await storedCount(conversationId)).toBe(1);
    // The stranger's read did not mark anything.
    expect((await t.get('/api/conversations', stranger.cookie)).json().conversations).toEqual([]);
  });

  it('pages newest first, chronological within a page, with `before` for older ones', async () => {
    const { seller, buyer, conversationId } = await chat();
    for (let i = 1; i <= 7; i++) {
      await conversationService.sendMessage(t.database.db, buyer.user.id, conversationId, `m${i}`);
    }
    const url = `/api/conversations/${conversationId}/messages`;
    const first = (await t.get(`${url}?limit=3`, seller.cookie)).json();
    expect(first.messages.map((m: { content: string }) => m.content)).toEqual(['m5', 'm6', 'm7']);
    expect(first.hasMore).toBe(true);
    // By the oldest message's id, as the app asks: messages sent in the same millisecond share an
    // instant, so an instant cannot say which of them came first.
    const second = (await t.get(`${url}?limit=3&before=${first.messages[0].id}`, seller.cookie)).json();
    expect(second.messages.map((m: { content: string }) => m.content)).toEqual(['m2', 'm3', 'm4']);
    expect(second.hasMore).toBe(true);
    const third = (await t.get(`${url}?limit=3&before=${second.messages[0].id}`, seller.cookie)).json();
    expect(third.messages.map((m: { content: string }) => m.content)).toEqual(['m1']);
    expect(third.hasMore).toBe(false);
    // An instant works too: the messages written strictly before it.
    const oldest = encodeURIComponent(third.messages[0].createdAt);
    const none = (await t.get(`${url}?limit=3&before=${oldest}`, seller.cookie)).json();
    expect(none.messages).toEqual([]);
    expect(none.hasMore).toBe(false);

    expect((await t.get(`${url}?limit=101`, seller.cookie)).statusCode).toBe(400);
    expect((await t.get(`${url}?before=yesterday`, seller.cookie)).statusCode).toBe(400);
  });
});

describe('unread counts, list order and previews', () => {
  it('leaves a sender’s own unread count as it was when they reply, and raises the other’s', async () => {
    const { seller, buyer, conversationId } = await chat();
    const unread = async (cookie: string) =>
      (await t.get('/api/conversations/unread-count', cookie)).json().count;
    await send(conversationId, 'Is it still free?', buyer.cookie);
    expect(await unread(seller.cookie)).toBe(1);
    expect(await unread(buyer.cookie)).toBe(0);
    // Sending marks nothing read: the seller's remembered count is kept, and still true.
    await send(conversationId, 'Yes, until Friday.', seller.cookie);
    expect(await unread(seller.cookie)).toBe(1);
    expect(await unread(buyer.cookie)).toBe(1);
  });

  it('counts the other person’s unread messages and clears them when they open the chat', async () => {
    const { seller, buyer, conversationId } = await chat();
    const unread = async (cookie: string) =>
      (await t.get('/api/conversations/unread-count', cookie)).json().count;
    expect(await unread(seller.cookie)).toBe(0);
    await send(conversationId, 'One', buyer.cookie);
    await send(conversationId, 'Two', buyer.cookie);
    expect(await unread(seller.cookie)).toBe(2);
    expect(await unread(buyer.cookie)).toBe(0); // one's own messages never count
    const [summary] = (await t.get('/api/conversations', seller.cookie)).json().conversations;
    expect(summary.unreadCount).toBe(2);

    // An older page does not mark anything read; the newest page does.
    const old = new Date(Date.now() + 60_000).toISOString();
    await t.get(
      `/api/conversations/${conversationId}/messages?before=${encodeURIComponent(old)}`,
      seller.cookie,
    );
    expect(await unread(seller.cookie)).toBe(2);
    const opened = (await t.get(`/api/conversations/${conversationId}/messages`, seller.cookie)).json();
    expect(opened.messages.every((m: { isRead: boolean }) => m.isRead)).toBe(true);
    expect(await unread(seller.cookie)).toBe(0);
    expect((await t.get('/api/conversations', seller.cookie)).json().conversations[0].unreadCount).toBe(0);

    await send(conversationId, 'Three', buyer.cookie);
    expect(await unread(seller.cookie)).toBe(1);

    // A message that arrives while the chat is open is marked read on its own; only by a party.
    const stranger = await createSignedInUser(t.database.db);
    const refused = await t.post(`/api/conversations/${conversationId}/read`, undefined, stranger.cookie);
    expect(refused.statusCode).toBe(404);
    expect(await unread(seller.cookie)).toBe(1);
    expect(
      (await t.post(`/api/conversations/${conversationId}/read`, undefined, buyer.cookie)).statusCode,
    ).toBe(200);
    expect(await unread(seller.cookie)).toBe(1); // the sender cannot mark their own message read for the other
    const read = await t.post(`/api/conversations/${conversationId}/read`, undefined, seller.cookie);
    expect(read.json()).toEqual({ success: true });
    expect(await unread(seller.cookie)).toBe(0);
    expect((await t.post('/api/conversations/not-a-uuid/read', undefined, seller.cookie)).statusCode).toBe(
      400,
    );
  });

  it('lists both sides’ conversations, newest last message first, with previews', async () => {
    const me = await createSignedInUser(t.database.db);
    const lender = await createSignedInUser(t.database.db);
    const borrower = await createSignedInUser(t.database.db);
    const theirItem = await createItem(t.database.db, { userId: lender.user.id, title: 'Kayak' });
    const myItem = await createItem(t.database.db, { userId: me.user.id, title: 'Projector' });

    const asBuyer = (await t.post('/api/conversations', { itemId: theirItem.id }, me.cookie)).json()
      .conversation.id;
    const asSeller = (await t.post('/api/conversations', { itemId: myItem.id }, borrower.cookie)).json()
      .conversation.id;
    await send(asBuyer, 'Kayak free Sunday?', me.cookie);
    await send(asSeller, 'Can I borrow the projector?', borrower.cookie);

    let list = (await t.get('/api/conversations', me.cookie)).json().conversations;
    expect(list.map((c: { id: string }) => c.id)).toEqual([asSeller, asBuyer]);
    expect(list[0]).toMatchObject({
      sellerId: me.user.id,
      otherUser: { id: borrower.user.id, fullName: borrower.user.fullName },
      item: { title: 'Projector' },
      unreadCount: 1,
      lastMessage: { content: 'Can I borrow the projector?', senderId: borrower.user.id },
    });
    expect(list[1]).toMatchObject({
      buyerId: me.user.id,
      otherUser: { id: lender.user.id },
      item: { title: 'Kayak' },
      unreadCount: 0,
      lastMessage: { content: 'Kayak free Sunday?', senderId: me.user.id },
    });
    expect(list[0].lastMessageAt).toBe(list[0].lastMessage.createdAt);

    await send(asBuyer, 'Sure, Sunday works.', lender.cookie);
    list = (await t.get('/api/conversations', me.cookie)).json().conversations;
    expect(list.map((c: { id: string }) => c.id)).toEqual([asBuyer, asSeller]);
    expect(list[0].lastMessage.content).toBe('Sure, Sunday works.');
    expect((await t.get('/api/conversations/unread-count', me.cookie)).json().count).toBe(2);

    // A deleted item keeps the conversation, without its item.
    await t.database.db.update(items).set({ deletedAt: new Date() }).where(eq(items.id, theirItem.id));
    list = (await t.get('/api/conversations', me.cookie)).json().conversations;
    expect(list[0].item).toBeNull();
  });
});

describe('the recipient’s unread count after a send', () => {
  it('is fresh at once on the instance that stored the message, before any announcement arrives', async () => {
    // An instance whose hub hears nothing: the database's announcement of the message is still on its
    // way (on PostgreSQL it travels on another connection and comes a moment after the commit).
    const deaf: Database = {
      ...t.database,
      newClient:
        t.database.newClient &&
        (() => {
          const client = t.database.newClient!();
          client.query = (async () => ({ rows: [] })) as never;
          return client;
        }),
      pglite:
        t.database.pglite &&
        new Proxy(t.database.pglite, {
          get(target, property) {
            if (property === 'listen') return async () => async () => {};
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
    };
    const app = await buildApp({ config: t.config, database: deaf, logger: false });
    try {
      const { seller, buyer, conversationId } = await chat();
      const call = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
        app.inject({ method, url, payload, headers: { cookie, origin: ORIGIN, host: 'localhost:80' } });
      const unread = async () =>
        (await call('GET', '/api/conversations/unread-count', seller.cookie)).json().count;
      expect(await unread()).toBe(0); // now remembered
      const sent = await call('POST', `/api/conversations/${conversationId}/messages`, buyer.cookie, {
        content: 'Are you there?',
      });
      expect(sent.statusCode).toBe(201);
      expect(await unread()).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('signed out', () => {
  it('answers 401 on every route', async () => {
    const { conversationId, item } = await chat();
    const id = conversationId;
    expect((await t.get('/api/conversations')).statusCode).toBe(401);
    expect((await t.get('/api/conversations/unread-count')).statusCode).toBe(401);
    expect((await t.post('/api/conversations', { itemId: item.id })).statusCode).toBe(401);
    expect((await t.get(`/api/conversations/${id}/messages`)).statusCode).toBe(401);
    expect((await t.post(`/api/conversations/${id}/messages`, { content: 'Hi' })).statusCode).toBe(401);
    expect((await t.post(`/api/conversations/${id}/read`)).statusCode).toBe(401);
    expect(await storedCount(id)).toBe(0);
  });
});
