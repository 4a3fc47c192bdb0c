import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { items } from './items.ts';
import { users } from './users.ts';

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    /** The would-be borrower who opened the chat. */
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The item's owner. */
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('conversations_item_buyer_seller_unique').on(t.itemId, t.buyerId, t.sellerId),
    check('conversations_parties_check', sql`${t.buyerId} <> ${t.sellerId}`),
    // The chat sidebar lists a user's conversations newest first, from either side.
    index('conversations_buyer_last_idx').on(t.buyerId, t.lastMessageAt.desc()),
    index('conversations_seller_last_idx').on(t.sellerId, t.lastMessageAt.desc()),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: createdAt(),
    /**
     * The server's order of messages: taken when the row is inserted, so it never ties and
     * never depends on clocks. Every list and every "last message" orders by it.
     */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    check('messages_content_check', sql`char_length(${t.content}) between 1 and 1000`),
    index('messages_conversation_seq_idx').on(t.conversationId, t.seq.desc()),
    // Unread counts only ever look at unread rows.
    index('messages_unread_idx').on(t.conversationId, t.senderId).where(sql`${t.isRead} = false`),
    // A person's sending budget counts their messages of the last seconds (conversations/send-limit.ts).
    index('messages_sender_created_idx').on(t.senderId, t.createdAt),
  ],
);
