import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CATEGORIES,
  MODERATION_ACTIONS,
  REPORT_REASONS,
  REPORT_STATUSES,
  REVIEW_TYPES,
} from '#shared/constants.ts';
import { asks } from './asks.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// Trust and community: reviews, reports, badges and the campus impact counters.

export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revieweeId: uuid('reviewee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id').references(() => items.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    /**
     * The borrower's rating of the item, apart from `rating` (of the lender). Null on the lender's
     * review, and on a borrower's review written with a single rating for both (decision 053).
     */
    itemRating: smallint('item_rating'),
    comment: text('comment').notNull(),
    reviewType: text('review_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    check('reviews_item_rating_check', sql`${t.itemRating} between 1 and 5`),
    check('reviews_type_check', oneOf(t.reviewType, REVIEW_TYPES)),
    check('reviews_parties_check', sql`${t.reviewerId} <> ${t.revieweeId}`),
    // Each party reviews a reservation once.
    unique('reviews_reservation_reviewer_unique').on(t.reservationId, t.reviewerId),
    index('reviews_reviewee_created_idx').on(t.revieweeId, t.createdAt.desc()),
    index('reviews_item_created_idx').on(t.itemId, t.createdAt.desc()),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: id(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportedUserId: uuid('reported_user_id').references(() => users.id, { onDelete: 'cascade' }),
    reportedItemId: uuid('reported_item_id').references(() => items.id, { onDelete: 'cascade' }),
    /** An ask on the campus board; its author is the reported user, as an item's owner is. */
    reportedAskId: uuid('reported_ask_id').references(() => asks.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    description: text('description').notNull(),
    status: text('status').notNull().default('pending'),
    adminNotes: text('admin_notes'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('reports_reason_check', oneOf(t.reason, REPORT_REASONS)),
    check('reports_status_check', oneOf(t.status, REPORT_STATUSES)),
    check('reports_description_check', sql`char_length(${t.description}) between 10 and 1000`),
    check('reports_target_check', sql`${t.reportedUserId} is not null or ${t.reportedItemId} is not null`),
    // Admin queue: by status, oldest first.
    index('reports_status_created_idx').on(t.status, t.createdAt),
    index('reports_reporter_idx').on(t.reporterId),
    // An ask report names the ask and its author, never an item too.
    check(
      'reports_ask_check',
      sql`${t.reportedAskId} is null or (${t.reportedItemId} is null and ${t.reportedUserId} is not null)`,
    ),
    // One open report per reporter and target: an item report targets the item, an ask report the
    // ask, otherwise the user.
    uniqueIndex('reports_open_item_unique')
      .on(t.reporterId, t.reportedItemId)
      .where(sql`${t.status} = 'pending' and ${t.reportedItemId} is not null`),
    uniqueIndex('reports_open_ask_unique')
      .on(t.reporterId, t.reportedAskId)
      .where(sql`${t.status} = 'pending' and ${t.reportedAskId} is not null`),
    uniqueIndex('reports_open_user_unique')
      .on(t.reporterId, t.reportedUserId)
      .where(sql`${t.status} = 'pending' and ${t.reportedItemId} is null and ${t.reportedAskId} is null`),
    index('reports_item_idx').on(t.reportedItemId),
    index('reports_ask_idx').on(t.reportedAskId),
    index('reports_user_idx').on(t.reportedUserId),
  ],
);

export const userBadges = pgTable(
  'user_badges',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    badgeType: text('badge_type').notNull(),
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('user_badges_user_type_unique').on(t.userId, t.badgeType)],
);

/** Running totals per campus, updated in the transaction that completes a reservation. */
export const campusImpact = pgTable(
  'campus_impact',
  {
    id: id(),
    campus: text('campus').notNull().unique(),
    itemsShared: integer('items_shared').notNull().default(0),
    /** Grams of CO2e avoided. */
    co2SavedGrams: bigint('co2_saved_grams', { mode: 'number' }).notNull().default(0),
    moneySavedCents: bigint('money_saved_cents', { mode: 'number' }).notNull().default(0),
    /** Grams of waste kept out of landfill. */
    wasteReducedGrams: bigint('waste_reduced_grams', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'campus_impact_nonnegative_check',
      sql`${t.itemsShared} >= 0 and ${t.co2SavedGrams} >= 0 and ${t.moneySavedCents} >= 0 and ${t.wasteReducedGrams} >= 0`,
    ),
  ],
);

/** What admins did, kept so the next admin reads a target's history (notes, hides, suspensions, decisions). */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: id(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'cascade' }),
    targetItemId: uuid('target_item_id').references(() => items.id, { onDelete: 'cascade' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    check('moderation_actions_action_check', oneOf(t.action, MODERATION_ACTIONS)),
    index('moderation_actions_user_idx').on(t.targetUserId, t.createdAt.desc()),
    index('moderation_actions_item_idx').on(t.targetItemId, t.createdAt.desc()),
  ],
);

/**
 * One row per completed reservation: what that borrow saved, by the factors in docs/impact-methodology.md.
 * campus_impact holds the running totals; this ledger answers the dashboard's per-month, per-category
 * and per-person questions (active sharers, category counts, top contributors this week).
 */
export const impactContributions = pgTable(
  'impact_contributions',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .unique()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    campus: text('campus').notNull(),
    category: text('category').notNull(),
    lenderId: uuid('lender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    borrowerId: uuid('borrower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    moneySavedCents: integer('money_saved_cents').notNull(),
    co2SavedGrams: integer('co2_saved_grams').notNull(),
    wasteReducedGrams: integer('waste_reduced_grams').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('impact_contributions_category_check', oneOf(t.category, CATEGORIES)),
    check(
      'impact_contributions_nonnegative_check',
      sql`${t.moneySavedCents} >= 0 and ${t.co2SavedGrams} >= 0 and ${t.wasteReducedGrams} >= 0`,
    ),
    index('impact_contributions_campus_completed_idx').on(t.campus, t.completedAt),
  ],
);
