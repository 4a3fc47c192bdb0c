import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { CATEGORIES, CONDITIONS, PICKUP_METHODS, RENTAL_PERIODS } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { users } from './users.ts';

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
    /** The owner's campus, copied so campus filters need no join. */
    campus: text('campus').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('items_category_check', oneOf(t.category, CATEGORIES)),
    check('items_condition_check', oneOf(t.condition, CONDITIONS)),
    check('items_pickup_method_check', oneOf(t.pickupMethod, PICKUP_METHODS)),
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
    // Home and browse: newest first within a campus, optionally one category.
    index('items_campus_created_idx').on(t.campus, t.createdAt.desc()),
    index('items_category_created_idx').on(t.category, t.createdAt.desc()),
    index('items_created_idx').on(t.createdAt.desc()),
    // Profile: a user's items.
    index('items_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);
