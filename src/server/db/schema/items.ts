import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { CANCELLATION_POLICIES, DEFAULT_CANCELLATION_POLICY } from '#shared/booking/cancellation-policy.ts';
import { CATEGORIES, CONDITIONS, PICKUP_METHODS, RENTAL_PERIODS } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { users } from './users.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const items = pgTable(
  'items',
  {
    id: id(),
    /** Spec §3: an item is deleted with its owner. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    condition: text('condition').notNull(),
    /** Integer cents; null when the lender asks no deposit. */
    depositCents: integer('deposit_cents'),
    /** Integer cents; null for a free item. */
    rentalPriceCents: integer('rental_price_cents'),
    rentalPeriod: text('rental_period'),
    pickupMethod: text('pickup_method').notNull(),
    pickupLocation: text('pickup_location'),
    availableFrom: date('available_from').notNull(),
    availableUntil: date('available_until'),
    /** Weekday numbers, 0 = Sunday … 6 = Saturday. */
    availableDays: smallint('available_days').array().notNull().default(sql`'{0,1,2,3,4,5,6}'::smallint[]`),
    isAvailable: boolean('is_available').notNull().default(true),
    /**
     * How many of its reservations are out with a borrower (status 'active'), kept by triggers on
     * reservations inside the changing transaction (migration 0052): "available now" needs none, and
     * lists read that from their covering indexes instead of the set of items out (1,000 on the bench
     * campus) for every page and count.
     */
    outCount: integer('out_count').notNull().default(0),
    /** What a borrower's cancellation refunds (src/shared/cancellation-policy.ts). */
    cancellationPolicy: text('cancellation_policy').notNull().default(DEFAULT_CANCELLATION_POLICY),
    /** The owner's campus, copied so campus filters need no join. */
    campus: text('campus').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the owner deletes the item: it leaves every list but past reservations keep it (decision 005). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Set when an admin hides the item after a report: it leaves browse and its page, like a deleted one. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    /** Full-text search: title weighs most, then category, then description. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', category), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')`,
    ),
    /** Lower-cased text whose words feed the search vocabulary (`search_words`, migration 0012). */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(coalesce(title, '') || ' ' || category || ' ' || coalesce(description, ''))`,
    ),
  },
  (t) => [
    check('items_category_check', oneOf(t.category, CATEGORIES)),
    check('items_condition_check', oneOf(t.condition, CONDITIONS)),
    check('items_pickup_method_check', oneOf(t.pickupMethod, PICKUP_METHODS)),
    check('items_cancellation_policy_check', oneOf(t.cancellationPolicy, CANCELLATION_POLICIES)),
    check(
      'items_rental_period_check',
      sql`${t.rentalPeriod} is null or ${oneOf(t.rentalPeriod, RENTAL_PERIODS)}`,
    ),
    check('items_deposit_check', sql`${t.depositCents} is null or ${t.depositCents} >= 0`),
    check('items_rental_price_check', sql`${t.rentalPriceCents} is null or ${t.rentalPriceCents} >= 0`),
    check('items_images_check', sql`cardinality(${t.images}) <= 5`),
    check(
      'items_available_days_check',
      sql`cardinality(${t.availableDays}) between 1 and 7 and ${t.availableDays} <@ '{0,1,2,3,4,5,6}'::smallint[]`,
    ),
    check(
      'items_window_check',
      sql`${t.availableUntil} is null or ${t.availableUntil} >= ${t.availableFrom}`,
    ),
    // Home and browse list live items newest first: by campus, by category, by both, or all.
    // The order is `created_at desc, id desc` (nulls first, as plain DESC sorts): with both columns in
    // the index in that order, a page of the newest items is read in order and stops early instead of
    // sorting every match (docs/performance.md). Migration 0049 adds every list filter's column to it
    // (INCLUDE, which Drizzle cannot declare): counts and later pages are then read from it alone.
    index('items_campus_created_idx')
      .on(t.campus, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    // Covering too (migration 0049): counts of one category on every campus.
    index('items_category_created_idx').on(t.category, t.createdAt.desc()).where(sql`${t.deletedAt} is null`),
    index('items_campus_category_created_idx')
      .on(t.campus, t.category, t.createdAt.desc())
      .where(sql`${t.deletedAt} is null`),
    index('items_created_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    // "Available now" and free-only lists read only available rows.
    index('items_available_created_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null and ${t.isAvailable}`),
    index('items_price_idx').on(t.rentalPriceCents).where(sql`${t.deletedAt} is null`),
    // Search reads `item_search` (below), which has the full-text index.
    // Profile: a user's items.
    index('items_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);

/**
 * Every word the catalogue's titles, categories and descriptions have ever used, lower-cased and
 * unstemmed ('simple' configuration), kept by a trigger on items (migration 0012). A search word found
 * nowhere in it is replaced by its nearest neighbour here by trigram similarity, so "drll" searches for
 * "drill" through the one full-text index (PostgreSQL's documentation on pg_trgm suggests exactly this
 * for spelling). Words are never removed: a word no live item has any more only corrects to nothing found.
 */
export const searchWords = pgTable(
  'search_words',
  {
    /** "C" collation: a prefix LIKE ('calc%') reads the primary key's btree. */
    word: text('word').primaryKey(),
    /**
     * In the order words were learnt: a server keeps the vocabulary in memory and reads only the words
     * past the last one it has (features/items/vocabulary.ts, migration 0041).
     */
    learnt: bigint('learnt', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
  },
  // No trigram index any more: typos are corrected in memory (migration 0041).
  (t) => [index('search_words_learnt_idx').on(t.learnt)],
);

/**
 * How many items each campus has in each category that are not deleted and not hidden, kept by
 * statement triggers on items inside the writing transaction (migration 0047), so Browse's plain
 * counts ("1,000+ items", "42 items in Tools") are a sum of a few rows instead of reading every
 * matching item. Items of suspended owners are counted here and subtracted when read
 * (`countListed`): suspensions are few, and reading them in the same statement as these rows keeps
 * the figure exact under concurrent writes without any lock between a suspension and listings.
 */
export const itemCounts = pgTable(
  'item_counts',
  {
    campus: text('campus').notNull(),
    category: text('category').notNull(),
    live: integer('live').notNull(),
  },
  (t) => [primaryKey({ columns: [t.campus, t.category] })],
);

/**
 * What a search reads of each live item (not deleted): its words and every column a list filters or
 * orders by, a copy kept by statement triggers on items inside the writing transaction (migration
 * 0050). A search reads every item its words match, and an item's row is about 1.2 kB (its photos,
 * description and search text besides), six to a table page: a common word on the bench campus read
 * 1,164 pages of items; these rows, without those columns, are two to three times as many to a page.
 * Hidden items and suspended owners' items are here too; a search leaves them out as a list does.
 */
export const itemSearch = pgTable(
  'item_search',
  {
    id: uuid('id').primaryKey(),
    campus: text('campus').notNull(),
    category: text('category').notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    pickupMethod: text('pickup_method').notNull(),
    rentalPriceCents: integer('rental_price_cents'),
    isAvailable: boolean('is_available').notNull(),
    availableFrom: date('available_from').notNull(),
    availableUntil: date('available_until'),
    availableDays: smallint('available_days').array().notNull(),
    outCount: integer('out_count').notNull(),
    searchVector: tsvector('search_vector').notNull(),
  },
  // Typos are corrected against `search_words` first (migration 0012), then one full-text index.
  (t) => [index('item_search_vector_idx').using('gin', t.searchVector)],
);
