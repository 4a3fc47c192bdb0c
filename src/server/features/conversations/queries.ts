import { and, desc, eq, isNull, lt, ne, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { conversations, messages } from '../../db/schema/chat.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about conversations and messages.

/** Chat lists are capped; nobody scrolls a sidebar past a few hundred conversations. */
const LIST_LIMIT = 200;

const isParty = (userId: string | SQLWrapper) =>
  or(eq(conversations.buyerId, userId), eq(conversations.sellerId, userId));

export async function findItemOwner(db: Db, itemId: string) {
  const [row] = await db
    .select({
      id: items.id,
      userId: items.userId,
      deletedAt: items.deletedAt,
      hiddenAt: items.hiddenAt,
      ownerSuspendedAt: users.suspendedAt,
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, itemId))
    .limit(1);
  return row;
}

/** Creates the conversation unless it exists (the unique key decides under concurrency); answers its id. */
/** A reservation's two people and its item, for the chat between them ('Message {name}'). */
export async function findReservationParties(db: Db, reservationId: string) {
  const [row] = await db
    .select({
      itemId: reservations.itemId,
      borrowerId: reservations.borrowerId,
      providerId: reservations.providerId,
    })
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .limit(1);
  return row;
}

export async function findOrCreate(
  db: Db,
  values: { itemId: string; buyerId: string; sellerId: string },
): Promise<string> {
  await db
    .insert(conversations)
    .values(values)
    .onConflictDoNothing({
      target: [conversations.itemId, conversations.buyerId, conversations.sellerId],
    });
  return (await findBetween(db, values))!.id;
}

/** The conversation of these two people about this item, if they have one. */
export async function findBetween(db: Db, key: { itemId: string; buyerId: string; sellerId: string }) {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.itemId, key.itemId),
        eq(conversations.buyerId, key.buyerId),
        eq(conversations.sellerId, key.sellerId),
      ),
    )
    .limit(1);
  return row;
}

/** The conversation when this user is one of its two people. */
export async function findForParty(db: Db, conversationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), isParty(userId)))
    .limit(1);
  return row;
}

export async function findById(db: Db, conversationId: string) {
  const [row] = await db
    .select({ buyerId: conversations.buyerId, sellerId: conversations.sellerId })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .limit(1);
  return row;
}

export interface SummaryRow {
  id: string;
  itemId: string;
  buyerId: string;
  sellerId: string;
  lastMessageAt: Date;
  createdAt: Date;
  otherUser: { id: string; fullName: string; username: string; profileImage: string | null };
  item: { id: string; title: string; images: string[] } | null;
  unreadCount: number;
  lastMessage: { content: string; senderId: string; createdAt: string } | null;
}

/** A JSON column comes back parsed from node-postgres and PGlite alike; tolerate a string anyway. */
const parseJson = <T>(value: unknown): T | null =>
  value == null ? null : ((typeof value === 'string' ? JSON.parse(value) : value) as T);

/**
 * The caller's conversations from either side, newest last message first, each with the other
 * person, the item, the caller's unread count and the last message: one query, no N+1.
 */
export async function listSummaries(db: Db, userId: string, onlyId?: string): Promise<SummaryRow[]> {
  const otherId = sql`case when ${conversations.buyerId} = ${userId} then ${conversations.sellerId} else ${conversations.buyerId} end`;
  const where: SQL[] = [isParty(userId)!];
  if (onlyId) where.push(eq(conversations.id, onlyId));
  const rows = await db
    .select({
      id: conversations.id,
      itemId: conversations.itemId,
      buyerId: conversations.buyerId,
      sellerId: conversations.sellerId,
      lastMessageAt: conversations.lastMessageAt,
      createdAt: conversations.createdAt,
      otherUser: {
        id: users.id,
        fullName: users.fullName,
        username: users.username,
        profileImage: users.profileImage,
      },
      itemRowId: items.id,
      itemTitle: items.title,
      itemImages: items.images,
      unreadCount: sql<number>`(
        select count(*) from ${messages} m
        where m.conversation_id = ${conversations.id} and m.sender_id <> ${userId} and m.is_read = false
      )`.mapWith(Number),
      lastMessage: sql<unknown>`(
        select json_build_object('content', m.content, 'senderId', m.sender_id, 'createdAt', m.created_at)
        from ${messages} m where m.conversation_id = ${conversations.id}
        order by m.seq desc limit 1
      )`,
    })
    .from(conversations)
    .innerJoin(users, eq(users.id, otherId))
    .leftJoin(items, and(eq(items.id, conversations.itemId), isNull(items.deletedAt)))
    .where(and(...where))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(LIST_LIMIT);
  return rows.map(({ itemRowId, itemTitle, itemImages, lastMessage, ...row }) => ({
    ...row,
    item:
      itemRowId && itemTitle !== null && itemImages !== null
        ? { id: itemRowId, title: itemTitle, images: itemImages }
        : null,
    lastMessage: parseJson<SummaryRow['lastMessage'] & object>(lastMessage),
  }));
}

/** countUnread's query, with the placeholder `userId`. */
export function unreadCountQuery(db: Db) {
  const person = sql.placeholder('userId');
  return (
    db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      // `is_read = false` as a literal: the plan kept for every person then reads the unread messages'
      // partial index, as one planned for each would (a parameter made PostgreSQL plan every poll).
      .where(and(isParty(person), ne(messages.senderId, person), sql`${messages.isRead} = false`))
  );
}

/** Messages from others, unread, across all of the user's conversations. */
export async function countUnread(db: Db, userId: string): Promise<number> {
  // Every open tab polls it: prepared once (db/prepared.ts).
  const [row] = await preparedOnce(db, 'chat_unread_count', (name) =>
    unreadCountQuery(db).prepare(name),
  ).execute({
    userId,
  });
  return row?.count ?? 0;
}

/**
 * Marks the other person's messages read if `userId` is one of the conversation's two people, in one
 * statement (no transaction's extra round trips): whether they are.
 */
export async function markReadAsParty(db: Db, conversationId: string, userId: string): Promise<boolean> {
  const result = await db.execute<{ is_party: boolean }>(sql`
    with party as (
      select 1 from ${conversations} where ${conversations.id} = ${conversationId} and ${isParty(userId)}
    ), marked as (
      update ${messages} set is_read = true
      where ${messages.conversationId} = ${conversationId} and ${messages.senderId} <> ${userId}
        and ${messages.isRead} = false and exists (select 1 from party)
    )
    select exists (select 1 from party) as is_party`);
  return Boolean(result.rows[0]?.is_party);
}

export async function markReadFromOthers(db: Db, conversationId: string, userId: string) {
  await db
    .update(messages)
    .set({ isRead: true })
    .where(
      and(
        eq(messages.conversationId, conversationId),
        ne(messages.senderId, userId),
        eq(messages.isRead, false),
      ),
    );
}

/** A message id (the exact cursor) rather than an instant. */
const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Newest first by the server's sequence, `limit + 1` rows so the caller can tell whether older ones
 * remain. `before`: older than that message of this conversation, or written before that instant.
 */
export function listPage(db: Db, conversationId: string, limit: number, before?: string) {
  let older: SQL | undefined;
  if (before && MESSAGE_ID.test(before)) {
    older = sql`${messages.seq} < (select m.seq from ${messages} m where m.id = ${before} and m.conversation_id = ${conversationId})`;
  } else if (before) {
    older = lt(messages.createdAt, new Date(before));
  }
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), older))
    .orderBy(desc(messages.seq))
    .limit(limit + 1);
}

/**
 * Stores a message if its sender is one of the conversation's two people, and moves the
 * conversation's last-message time with it: one statement, one round trip (a chat message is the most
 * frequent write; its delivery waits for this commit). Times are kept to the millisecond so a
 * message's ISO createdAt works exactly as a `before` cursor.
 *
 * The sender's messages in the last `windowSeconds` are counted first, under a lock on the sender that
 * every instance takes, so two sends of one person cannot both see room for one more: at `max` nothing
 * is inserted and the answer says how long until the oldest of them leaves the window. The lock and the
 * send are one function (migration 0051); the lock is held to the end of the caller's transaction, or
 * of this statement outside one. No party (not theirs, or gone): nothing.
 */
export async function insertMessageAsParty(
  db: Db,
  values: { conversationId: string; senderId: string; content: string },
  budget: { max: number; windowSeconds: number },
) {
  const result = await db.execute<{
    is_party: boolean;
    retry_ms: number | null;
    id: string | null;
    conversation_id: string;
    sender_id: string;
    content: string;
    is_read: boolean;
    created_at: string;
    seq: string | number;
    recipient_id: string;
  }>(sql`
    select * from campusloop_send_message(${values.conversationId}::uuid, ${values.senderId}::uuid,
      ${values.content}, ${budget.max}::int, ${budget.windowSeconds}::int)`);
  const row = result.rows[0];
  if (!row?.is_party) return { row: undefined, refusedForMs: undefined };
  if (!row.id) return { row: undefined, refusedForMs: Math.max(1, row.retry_ms ?? 1000) };
  return {
    row: {
      id: row.id,
      conversationId: row.conversation_id,
      senderId: row.sender_id,
      content: row.content,
      isRead: row.is_read,
      createdAt: new Date(row.created_at),
      // bigint arrives as a string from node-postgres; a chat will not reach 2^53 messages.
      seq: Number(row.seq),
      recipientId: row.recipient_id,
    },
    refusedForMs: undefined,
  };
}
