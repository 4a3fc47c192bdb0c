import { and, avg, count, desc, eq, gt, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReviewType } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { jsonList, jsonRow, subqueries } from '../../db/json-rows.ts';
import { isRevealed, revealCutoff, revealedBy } from '../../db/review-visibility.ts';
import { reviews } from '../../db/schema/community.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about reviews.

/** Item pages and profiles show at most this many, newest first. */
const LIST_LIMIT = 100;

const reviewer = alias(users, 'reviewer');
const provider = alias(users, 'provider');
const borrower = alias(users, 'borrower');

const publicFields = {
  id: reviews.id,
  rating: reviews.rating,
  itemRating: reviews.itemRating,
  comment: reviews.comment,
  createdAt: reviews.createdAt,
  reviewType: reviews.reviewType,
  reviewer: {
    id: reviewer.id,
    fullName: reviewer.fullName,
    username: reviewer.username,
    profileImage: reviewer.profileImage,
  },
  item: { id: items.id, title: items.title },
};

function selectPublic(db: Db) {
  return db
    .select(publicFields)
    .from(reviews)
    .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
    .innerJoin(reservations, eq(reservations.id, reviews.reservationId))
    .innerJoin(items, eq(items.id, reservations.itemId));
}
export type PublicReviewRow = Awaited<ReturnType<typeof listForItem>>[number];

/** What borrowers said about the item (the lender's review is about the borrower, not the item). */
export function listForItem(db: Db, itemId: string, now: Date) {
  return selectPublic(db)
    .where(and(eq(reviews.itemId, itemId), eq(reviews.reviewType, 'borrower_to_lender'), isRevealed(now)))
    .orderBy(desc(reviews.createdAt))
    .limit(LIST_LIMIT);
}

export function listReceived(db: Db, userId: string, now: Date) {
  return selectPublic(db)
    .where(and(eq(reviews.revieweeId, userId), isRevealed(now)))
    .orderBy(desc(reviews.createdAt))
    .limit(LIST_LIMIT);
}

/** Count and average of the revealed reviews a person received (null average without any). */
export async function ratingSummary(db: Db, userId: string, now: Date) {
  const [row] = await db
    .select({ n: count(), average: avg(reviews.rating) })
    .from(reviews)
    .where(and(eq(reviews.revieweeId, userId), isRevealed(now)));
  return {
    count: Number(row?.n ?? 0),
    average: row?.average === null || row?.average === undefined ? null : Number(row.average),
  };
}

/** The reviews a person wrote, with whether each shows yet (My Reservations' cards). */
export function listWrittenBy(db: Db, reviewerId: string, now: Date) {
  return db
    .select({
      id: reviews.id,
      reservationId: reviews.reservationId,
      reviewType: reviews.reviewType,
      rating: reviews.rating,
      itemRating: reviews.itemRating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
      revealed: isRevealed(now),
    })
    .from(reviews)
    .where(eq(reviews.reviewerId, reviewerId))
    .orderBy(desc(reviews.createdAt))
    .limit(500);
}

/** A reservation with what reviewing it needs: its state, its two people and its item. */
export async function findReservation(db: Db, id: string) {
  const [row] = await db
    .select({
      id: reservations.id,
      status: reservations.status,
      itemId: reservations.itemId,
      borrowerId: reservations.borrowerId,
      providerId: reservations.providerId,
      itemTitle: items.title,
      provider: { id: provider.id, fullName: provider.fullName },
      borrower: { id: borrower.id, fullName: borrower.fullName },
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(provider, eq(provider.id, reservations.providerId))
    .innerJoin(borrower, eq(borrower.id, reservations.borrowerId))
    .where(eq(reservations.id, id))
    .limit(1);
  return row;
}
export type ReviewableReservation = NonNullable<Awaited<ReturnType<typeof findReservation>>>;

export async function findReview(db: Db, reservationId: string, reviewerId: string) {
  const [row] = await db
    .select({ id: reviews.id, createdAt: reviews.createdAt })
    .from(reviews)
    .where(and(eq(reviews.reservationId, reservationId), eq(reviews.reviewerId, reviewerId)))
    .limit(1);
  return row;
}

/** Inserts the review; undefined when this person already reviewed this reservation. */
export async function insertReview(
  db: Db,
  values: {
    reservationId: string;
    reviewerId: string;
    revieweeId: string;
    itemId: string | null;
    rating: number;
    itemRating: number | null;
    comment: string;
    reviewType: ReviewType;
  },
) {
  const [row] = await db
    .insert(reviews)
    .values(values)
    .onConflictDoNothing({ target: [reviews.reservationId, reviews.reviewerId] })
    .returning();
  return row;
}

/**
 * People whose reviews received became visible by the waiting time alone in (from, to]: nothing
 * happened at that moment, so the badge job looks for them.
 */
export async function revieweesRevealedByTimeBetween(db: Db, from: Date, to: Date) {
  const rows = await db
    .selectDistinct({ userId: reviews.revieweeId })
    .from(reviews)
    .where(
      and(
        gt(reviews.createdAt, revealCutoff(from)),
        lte(reviews.createdAt, revealCutoff(to)),
        sql`not exists (select 1 from "reviews" as counterpart
          where counterpart.reservation_id = "reviews"."reservation_id"
            and counterpart.reviewer_id = "reviews"."reviewee_id")`,
      ),
    );
  return rows.map((r) => r.userId);
}

/**
 * Announces to the read caches what reviews that became visible by the waiting time alone in (from, to]
 * change, as the review's own change did (migration 0030's campusloop_reviews_changed): its item's page
 * and cards, both people's profiles, and the reviewee's rating. Nothing else happened at that moment
 * to announce it.
 */
export async function announceRevealedByTimeBetween(db: Db, from: Date, to: Date): Promise<void> {
  await db.execute(sql`select campusloop_announce(array(
    select unnest(array['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus,
      'list:' || i.campus || ':' || i.category, 'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id,
      'rating:' || v.reviewee_id])
    from ${reviews} as v
    left join ${reservations} as r on r.id = v.reservation_id
    left join ${items} as i on i.id = coalesce(v.item_id, r.item_id)
    where v.created_at > ${revealCutoff(from).toISOString()}::timestamptz
      and v.created_at <= ${revealCutoff(to).toISOString()}::timestamptz
      and not exists (select 1 from ${reviews} as counterpart
        where counterpart.reservation_id = v.reservation_id and counterpart.reviewer_id = v.reviewee_id)))`);
}

// The same lists and summary inside another feature's one statement (the item page's, the profile's):
// the item's or person's id and the reveal cutoff (`revealCutoff(now)` as SQL) are the page's placeholders.

const publicJson = jsonRow(publicFields);

function publicJsonList(where: SQL | undefined) {
  return jsonList(
    subqueries
      .select({ row: publicJson.row })
      .from(reviews)
      .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
      .innerJoin(reservations, eq(reservations.id, reviews.reservationId))
      .innerJoin(items, eq(items.id, reservations.itemId))
      .where(where)
      .orderBy(desc(reviews.createdAt))
      .limit(LIST_LIMIT),
  );
}

/** listForItem's rows as one JSON array (decodePublicReviews reads it). */
export const itemReviewsJson = (itemId: SQLWrapper, cutoff: SQL) =>
  publicJsonList(
    and(eq(reviews.itemId, itemId), eq(reviews.reviewType, 'borrower_to_lender'), revealedBy(cutoff)),
  );

/** listReceived's rows as one JSON array (decodePublicReviews reads it). */
export const receivedJson = (userId: SQLWrapper, cutoff: SQL) =>
  publicJsonList(and(eq(reviews.revieweeId, userId), revealedBy(cutoff)));

export const decodePublicReviews = (json: unknown): PublicReviewRow[] => publicJson.decodeList(json);

/** ratingSummary's count and average as a JSON array (decodeRatingSummary reads it). */
export const ratingSummaryJson = (userId: SQLWrapper, cutoff: SQL) =>
  sql`(${subqueries
    .select({ row: sql`json_build_array(count(*)::int, avg(${reviews.rating}))`.as('row') })
    .from(reviews)
    .where(and(eq(reviews.revieweeId, userId), revealedBy(cutoff)))})`;

export function decodeRatingSummary(json: unknown): { count: number; average: number | null } {
  const [n, average] = (typeof json === 'string' ? JSON.parse(json) : json) as [
    number,
    number | string | null,
  ];
  return { count: Number(n), average: average === null ? null : Number(average) };
}
