import { eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { BadgeType } from '#shared/badges.ts';
import type { Db } from '../../db/client.ts';
import { jsonList, jsonRow, subqueries } from '../../db/json-rows.ts';
import { isRevealed } from '../../db/review-visibility.ts';
import { userBadges } from '../../db/schema/community.ts';
import type { BadgeFacts } from './rules.ts';

// The only place with Drizzle queries about badges: the facts the rules read, and the awards.

/**
 * Everything the rules need about one person, in one round trip; undefined for an unknown id.
 * Written as SQL with qualified names: the correlated subqueries must say which table they mean.
 */
export async function badgeFacts(db: Db, userId: string, now: Date): Promise<BadgeFacts | undefined> {
  const { rows } = await db.execute<{
    is_verified: boolean;
    completed_lends: number;
    co2_saved_grams: string;
    revealed_review_count: number;
    revealed_average_rating: string | null;
  }>(sql`
    select
      "users"."is_verified",
      (select count(*)::int from "reservations"
        where "reservations"."provider_id" = "users"."id" and "reservations"."status" = 'completed'
      ) as completed_lends,
      (select coalesce(sum("impact_contributions"."co2_saved_grams"), 0)::text from "impact_contributions"
        where "impact_contributions"."lender_id" = "users"."id" or "impact_contributions"."borrower_id" = "users"."id"
      ) as co2_saved_grams,
      (select count(*)::int from "reviews"
        where "reviews"."reviewee_id" = "users"."id" and ${isRevealed(now)}
      ) as revealed_review_count,
      (select avg("reviews"."rating")::text from "reviews"
        where "reviews"."reviewee_id" = "users"."id" and ${isRevealed(now)}
      ) as revealed_average_rating
    from "users"
    where "users"."id" = ${userId}`);
  const row = rows[0];
  if (!row) return undefined;
  return {
    isVerified: row.is_verified,
    completedLends: Number(row.completed_lends),
    co2SavedGrams: Number(row.co2_saved_grams),
    revealedReviewCount: Number(row.revealed_review_count),
    revealedAverageRating: row.revealed_average_rating === null ? null : Number(row.revealed_average_rating),
  };
}

export async function heldBadgeTypes(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ badgeType: userBadges.badgeType })
    .from(userBadges)
    .where(eq(userBadges.userId, userId));
  return rows.map((r) => r.badgeType);
}

/** Stores the badges; answers the ones that were not held yet (a concurrent award inserts nothing). */
export async function insertBadges(db: Db, userId: string, types: BadgeType[]): Promise<BadgeType[]> {
  if (types.length === 0) return [];
  const rows = await db
    .insert(userBadges)
    .values(types.map((badgeType) => ({ userId, badgeType })))
    .onConflictDoNothing({ target: [userBadges.userId, userBadges.badgeType] })
    .returning({ badgeType: userBadges.badgeType });
  return rows.map((r) => r.badgeType as BadgeType);
}

const badgeFields = { id: userBadges.id, badgeType: userBadges.badgeType, earnedAt: userBadges.earnedAt };

export function listForUser(db: Db, userId: string) {
  return db
    .select(badgeFields)
    .from(userBadges)
    .where(eq(userBadges.userId, userId))
    .orderBy(...badgeOrder);
}

const badgeOrder = [userBadges.earnedAt, userBadges.badgeType];
const badgeJson = jsonRow(badgeFields);

/** listForUser's rows as one JSON array, inside a profile's one statement (decodeBadges reads it). */
export const badgesJson = (userId: SQLWrapper) =>
  jsonList(
    subqueries
      .select({ row: badgeJson.row })
      .from(userBadges)
      .where(eq(userBadges.userId, userId))
      .orderBy(...badgeOrder),
  );

export const decodeBadges = (json: unknown) => badgeJson.decodeList(json);
