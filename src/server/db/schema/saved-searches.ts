import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CATEGORIES } from '#shared/constants.ts';
import { cascadingRef, createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { notifications } from './notifications.ts';
import { users } from './users.ts';

/**
 * "Tell me when something matches": a search a student keeps, on their own campus (decision 067). A new
 * listing finds its candidates by `lead_word` (the first word of the search): by equality with one of
 * the listing's word prefixes (the search's prefix rule), or by trigram similarity (its typo rule),
 * each an index lookup on this table instead of a scan of every saved search.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: id(),
    userId: cascadingRef('user_id', () => users.id),
    /** The student's campus when they saved it: only listings of that campus match. */
    campus: text('campus').notNull(),
    /** As typed (trimmed), shown back to them. */
    searchQuery: text('search_query').notNull(),
    /** The search's words as the search reads them (lower-case letters and digits, at most 8). */
    words: text('words').array().notNull(),
    leadWord: text('lead_word').notNull(),
    category: text('category'),
    maxPriceCents: integer('max_price_cents'),
    freeOnly: boolean('free_only').notNull().default(false),
    /** The words and filters as one string: the same search saved twice is the one already kept. */
    dedupeKey: text('dedupe_key').notNull(),
    /** The notification that gathers this search's matches while its batching window is open. */
    batchNotificationId: uuid('batch_notification_id').references(() => notifications.id, {
      onDelete: 'set null',
    }),
    batchStartedAt: timestamp('batch_started_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('saved_searches_category_check', sql`${t.category} is null or ${oneOf(t.category, CATEGORIES)}`),
    check('saved_searches_max_price_check', sql`${t.maxPriceCents} is null or ${t.maxPriceCents} >= 0`),
    check('saved_searches_words_check', sql`cardinality(${t.words}) between 1 and 8`),
    uniqueIndex('saved_searches_user_key_idx').on(t.userId, t.dedupeKey),
    index('saved_searches_user_created_idx').on(t.userId, t.createdAt.desc()),
    // A new listing's candidates: its word prefixes on its campus, and words like its words (typos).
    index('saved_searches_campus_lead_idx').on(t.campus, t.leadWord),
    index('saved_searches_lead_trgm_idx').using('gin', sql`${t.leadWord} gin_trgm_ops`),
  ],
);

/**
 * Which listing each student was told of: one row per person and listing, so a listing two of their
 * searches match, or a matching job run twice, tells them once.
 */
export const savedSearchMatches = pgTable(
  'saved_search_matches',
  {
    userId: cascadingRef('user_id', () => users.id),
    itemId: cascadingRef('item_id', () => items.id),
    savedSearchId: cascadingRef('saved_search_id', () => savedSearches.id),
    notificationId: uuid('notification_id').references(() => notifications.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.itemId] }),
    index('saved_search_matches_search_idx').on(t.savedSearchId),
    index('saved_search_matches_notification_idx').on(t.notificationId),
  ],
);
