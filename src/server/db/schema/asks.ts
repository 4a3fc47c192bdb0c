import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ASK_CLOSE_REASONS, ASK_STATUSES } from '#shared/asks.ts';
import { CATEGORIES } from '#shared/constants.ts';
import { conversations } from './chat.ts';
import { cascadingRef, createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// "Ask your campus": what a student needs, the listings neighbours offer for it, and who was told.

export const asks = pgTable(
  'asks',
  {
    id: id(),
    userId: cascadingRef('user_id', () => users.id),
    /** The author's campus when asking: only its students see the ask. */
    campus: text('campus').notNull(),
    title: text('title').notNull(),
    category: text('category').notNull(),
    note: text('note').notNull().default(''),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    /** The most the author would pay, in cents; 0 means free only. */
    maxPriceCents: integer('max_price_cents').notNull(),
    status: text('status').notNull().default('open'),
    closeReason: text('close_reason'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The approved reservation, made from one of its offers, that closed it. */
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    /** Hidden by a moderator: off the board, no more offers. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('asks_status_check', oneOf(t.status, ASK_STATUSES)),
    check('asks_close_reason_check', oneOf(t.closeReason, ASK_CLOSE_REASONS)),
    check('asks_category_check', oneOf(t.category, CATEGORIES)),
    check('asks_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    check('asks_max_price_check', sql`${t.maxPriceCents} >= 0`),
    check('asks_closed_check', sql`(${t.status} = 'closed') = (${t.closedAt} is not null)`),
    // The board: a campus's open asks, newest first.
    index('asks_campus_open_idx').on(t.campus, t.createdAt).where(sql`${t.status} = 'open'`),
    // The five-open limit and "my asks".
    index('asks_user_idx').on(t.userId, t.status),
    // An approval finds the asks its borrower has open.
    index('asks_reservation_idx').on(t.reservationId),
  ],
);

export const askOffers = pgTable(
  'ask_offers',
  {
    id: id(),
    askId: cascadingRef('ask_id', () => asks.id),
    itemId: cascadingRef('item_id', () => items.id),
    /** Who offered: the item's owner. */
    userId: cascadingRef('user_id', () => users.id),
    /** The chat between the two about the item, where the offer was said. */
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    // One offer per item per ask, races included.
    uniqueIndex('ask_offers_ask_item_unique').on(t.askId, t.itemId),
    index('ask_offers_item_idx').on(t.itemId),
    index('ask_offers_user_idx').on(t.userId),
  ],
);

/** Lenders told that an ask matches their listings: once per ask and person, however often the job runs. */
export const askMatchesTold = pgTable(
  'ask_matches_told',
  {
    askId: cascadingRef('ask_id', () => asks.id),
    userId: cascadingRef('user_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.askId, t.userId] })],
);

/** The campus days someone was e-mailed about asks: at most one e-mail a day, whichever instance sends. */
export const askEmailDays = pgTable(
  'ask_email_days',
  {
    userId: cascadingRef('user_id', () => users.id),
    day: date('day').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
