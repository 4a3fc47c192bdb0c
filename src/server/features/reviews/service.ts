import { msg } from '@lingui/core/macro';
import type { ReviewType } from '#shared/constants.ts';
import { intlLocale } from '#shared/format.ts';
import type { Review, ReviewInput, WrittenReview } from '#shared/schemas/reviews.ts';
import type { Db } from '../../db/client.ts';
import { revealsAt } from '../../db/review-visibility.ts';
import { transaction } from '../../db/transaction.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { awardBadges } from '../badges/service.ts';
import { notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';

// Reviews: after a completed reservation each party reviews the other once. The borrower's
// review rates the lender and the item apart (decision 053), the lender's rates the borrower. A review stays hidden
// until both are written or REVIEW_REVEAL_DAYS have passed (db/review-visibility.ts), so neither can retaliate.

export interface ReviewDeps {
  db: Db;
  /** The campus calendar's zone, for the dates notifications mention. */
  timeZone: string;
}

/** 'Mar 5' ('5 mar' in Spanish): in the active language, the recipient's inside notify's text(). */
function dayLabel(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { month: 'short', day: 'numeric', timeZone }).format(instant);
}

function toReview(row: queries.PublicReviewRow): Review {
  return {
    id: row.id,
    rating: row.rating,
    itemRating: row.itemRating,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
    reviewType: row.reviewType as ReviewType,
    reviewer: row.reviewer,
    item: row.item,
  };
}

function toWritten(
  row: {
    id: string;
    reservationId: string;
    reviewType: string;
    rating: number;
    itemRating: number | null;
    comment: string;
    createdAt: Date;
  },
  revealed: boolean,
): WrittenReview {
  return {
    id: row.id,
    reservationId: row.reservationId,
    reviewType: row.reviewType as ReviewType,
    rating: row.rating,
    itemRating: row.itemRating,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
    revealed,
    revealsAt: revealsAt(row.createdAt).toISOString(),
  };
}

export const reviewService = {
  /** POST /api/reviews: the signed-in party reviews the other party of a completed reservation. */
  async create(deps: ReviewDeps, reviewerId: string, input: ReviewInput, now = new Date()) {
    return transaction(deps.db, async (tx): Promise<WrittenReview> => {
      const reservation = await queries.findReservation(tx, input.reservationId);
      if (!reservation) throw notFound(msg`Reservation not found.`);
      const asBorrower = reservation.borrowerId === reviewerId;
      if (!asBorrower && reservation.providerId !== reviewerId) {
        throw forbidden(msg`You can only review reservations you were part of.`);
      }
      if (reservation.status !== 'completed') {
        throw conflict(
          msg`You can review this reservation once the item has been returned.`,
          'RESERVATION_NOT_COMPLETED',
        );
      }
      const reviewee = asBorrower ? reservation.provider : reservation.borrower;
      const reviewer = asBorrower ? reservation.borrower : reservation.provider;
      const review = await queries.insertReview(tx, {
        reservationId: reservation.id,
        reviewerId,
        revieweeId: reviewee.id,
        // The borrower's review is also the item's (spec §2 Item detail reviews).
        itemId: asBorrower ? reservation.itemId : null,
        rating: input.rating,
        // The lender's review is about the borrower alone: no item rating, whatever was sent.
        itemRating: asBorrower ? (input.itemRating ?? null) : null,
        comment: input.comment.trim(),
        reviewType: asBorrower ? 'borrower_to_lender' : 'lender_to_borrower',
      });
      if (!review) throw conflict(msg`You have already reviewed this reservation.`, 'ALREADY_REVIEWED');
      await notificationService.actedOn(tx, reviewerId, reservation.id, ['review_request']);

      const theirs = await queries.findReview(tx, reservation.id, reviewee.id);
      const name = reviewer.fullName;
      const itemTitle = reservation.itemTitle;
      await notificationService.notify(tx, {
        userId: reviewee.id,
        type: 'review_received',
        text: () => {
          const day = dayLabel(revealsAt(review.createdAt), deps.timeZone);
          return {
            title: msg`New review`,
            message: theirs
              ? msg`${name} reviewed you for ${itemTitle}. Both reviews now show on your profiles.`
              : msg`${name} reviewed you for ${itemTitle}. It shows once you have written yours, or on ${day}.`,
          };
        },
        relatedReservationId: reservation.id,
        relatedItemId: reservation.itemId,
      });
      // The new review counts for the reviewee once it shows; when it is the second one, the
      // reviewer's own review from the other side shows from now on as well.
      await awardBadges(tx, reviewee.id, now);
      if (theirs) await awardBadges(tx, reviewerId, now);
      return toWritten(review, Boolean(theirs) || revealsAt(review.createdAt) <= now);
    });
  },

  /** GET /api/reviews/mine: the reviews the person wrote, so My Reservations knows what is left to write. */
  async listWritten(db: Db, reviewerId: string, now = new Date()): Promise<WrittenReview[]> {
    return (await queries.listWrittenBy(db, reviewerId, now)).map((row) => toWritten(row, row.revealed));
  },

  /** The item page's reviews: what borrowers said, once revealed. */
  async forItem(db: Db, itemId: string, now = new Date()): Promise<Review[]> {
    return (await queries.listForItem(db, itemId, now)).map(toReview);
  },

  /**
   * The item's and the person's revealed reviews and the person's rating, as parts of another feature's
   * one statement (the item page's, the profile's): SQL given the id and the reveal cutoff, and the
   * decoders of what it reads.
   */
  inStatement: {
    forItem: queries.itemReviewsJson,
    received: queries.receivedJson,
    ratingSummary: queries.ratingSummaryJson,
    decodeReviews: (json: unknown): Review[] => queries.decodePublicReviews(json).map(toReview),
    decodeRatingSummary: queries.decodeRatingSummary,
  },

  /** The profile's Reviews tab: revealed reviews the person received. */
  async received(db: Db, userId: string, now = new Date()): Promise<Review[]> {
    return (await queries.listReceived(db, userId, now)).map(toReview);
  },

  /** The profile's average and count, over revealed reviews only (so a hidden review leaks nothing). */
  ratingSummary: (db: Db, userId: string, now = new Date()) => queries.ratingSummary(db, userId, now),

  /**
   * Called inside the transaction that completes a reservation, after the impact ledger row is
   * written: asks both people for a review and awards what the completion earned them.
   */
  async reservationCompleted(tx: Db, reservationId: string, now = new Date()) {
    const reservation = await queries.findReservation(tx, reservationId);
    if (!reservation) throw notFound(msg`Reservation not found.`);
    const { provider, borrower, itemTitle } = reservation;
    const lender = provider.fullName;
    const borrowerName = borrower.fullName;
    for (const [userId, message] of [
      [borrower.id, () => msg`How did it go? Leave a review for ${lender} and ${itemTitle}.`],
      [provider.id, () => msg`How did it go? Leave a review for ${borrowerName}, who borrowed ${itemTitle}.`],
    ] as const) {
      await notificationService.notify(tx, {
        userId,
        type: 'review_request',
        text: () => ({ title: msg`Leave a review`, message: message() }),
        relatedReservationId: reservation.id,
        relatedItemId: reservation.itemId,
      });
    }
    await awardBadges(tx, provider.id, now);
    await awardBadges(tx, borrower.id, now);
  },

  /**
   * For the background job: the read caches hear of reviews that started to show in (from, to]
   * because the waiting time ran out, so the pages that show them are not kept without them.
   */
  async announceRevealedByTime(db: Db, from: Date, to: Date): Promise<void> {
    await queries.announceRevealedByTimeBetween(db, from, to);
  },

  /**
   * For the background job: reviews that started to show in (from, to] because the waiting time
   * ran out. No event happened then, so their reviewees' badges are evaluated here.
   */
  async awardRevealedByTime(db: Db, from: Date, to: Date): Promise<number> {
    const userIds = await queries.revieweesRevealedByTimeBetween(db, from, to);
    let awarded = 0;
    for (const userId of userIds) {
      awarded += (await transaction(db, (tx) => awardBadges(tx, userId, to))).length;
    }
    return awarded;
  },
};
