import { type SQL, sql } from 'drizzle-orm';
import { REVIEW_REVEAL_DAYS } from '#shared/constants.ts';

// When a review may be shown: once the other party has reviewed the same reservation, or
// REVIEW_REVEAL_DAYS after it was written. Hidden until then so neither can answer the other in kind.
// One definition for every reader: item pages, profiles, averages and the badge rules. It sits with the
// database, below the features, like the tables it reads: the reviews feature awards badges after a
// review, so the badges feature cannot depend on the reviews feature in turn (decision 048,
// "What the structure rules found").

const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment a review written at `createdAt` shows, whatever the other party does. */
export function revealsAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + REVIEW_REVEAL_DAYS * DAY_MS);
}

/** Reviews written at or before this moment have waited long enough. */
export function revealCutoff(now: Date): Date {
  return new Date(now.getTime() - REVIEW_REVEAL_DAYS * DAY_MS);
}

/**
 * True for a row of `reviews` (not aliased in the outer query) that may be shown at `now`. The
 * columns are spelled out with their table: Drizzle leaves them bare in the select list of a
 * single-table query, where inside the subquery they would mean the counterpart's. The counterpart
 * lookup uses the unique (reservation_id, reviewer_id) index.
 */
export function isRevealed(now: Date): SQL<boolean> {
  return revealedBy(sql`${revealCutoff(now).toISOString()}`);
}

/**
 * isRevealed with the cutoff (`revealCutoff(now)`, an ISO timestamp) as any SQL value: a placeholder
 * in a prepared statement.
 */
export function revealedBy(cutoff: SQL): SQL<boolean> {
  return sql<boolean>`("reviews"."created_at" <= ${cutoff}::timestamptz or exists (
    select 1 from "reviews" as counterpart
    where counterpart.reservation_id = "reviews"."reservation_id"
      and counterpart.reviewer_id = "reviews"."reviewee_id"))`;
}
