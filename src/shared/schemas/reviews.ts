import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { LIMITS, REVIEW_TYPES } from '../constants.ts';
import { plainText } from './fields.ts';

// Reviews (spec §3, §5): one per party and completed reservation, hidden until both are
// written or REVIEW_REVEAL_DAYS have passed.

const { ratingMin, ratingMax, reviewCommentMax } = LIMITS;
const ratingMessage = () => t`Rating must be a whole number from ${ratingMin} to ${ratingMax}`;
const stars = (missing: () => string) =>
  z
    .number({ error: missing })
    .int({ error: ratingMessage })
    .min(ratingMin, { error: ratingMessage })
    .max(ratingMax, { error: ratingMessage });

/** POST /api/reviews; the form in My Reservations uses the same rules. */
export const reviewInput = z.object({
  reservationId: z.uuid({ error: () => t`Reservation not found` }),
  /** Of the other party: the lender for a borrower, the borrower for a lender. */
  rating: stars(() => t`Please choose a star rating`),
  /**
   * The borrower's rating of the item, apart from the lender's (decision 053). Optional: without it a
   * borrower's `rating` stands for both, as before; a lender's review has none and ignores it.
   */
  itemRating: stars(() => t`Please rate the item`).optional(),
  comment: plainText(() => t`Comment is required`)
    .trim()
    .min(1, { error: () => t`Comment is required` })
    .max(reviewCommentMax, { error: () => t`Comment must be at most ${reviewCommentMax} characters` }),
});
export type ReviewInput = z.input<typeof reviewInput>;

/** The borrower's form in My Reservations: both ratings are asked, the lender's and the item's. */
export const borrowerReviewInput = reviewInput.extend({ itemRating: stars(() => t`Please rate the item`) });

/** A revealed review as item pages and profiles show it (spec §2, §3: with the reviewer's names). */
export const review = z.object({
  id: z.uuid(),
  rating: z.number().int(),
  /** The borrower's rating of the item; null on a lender's review or a single rating for both. */
  itemRating: z.number().int().nullable(),
  comment: z.string(),
  createdAt: z.string(),
  reviewType: z.enum(REVIEW_TYPES),
  reviewer: z.object({
    id: z.uuid(),
    fullName: z.string(),
    username: z.string(),
    profileImage: z.string().nullable(),
  }),
  /** The item the reservation was for (a deleted item keeps its title). */
  item: z.object({ id: z.uuid(), title: z.string() }),
});
export type Review = z.infer<typeof review>;

/** A review the signed-in person wrote, as My Reservations shows it on the reservation's card. */
export const writtenReview = z.object({
  id: z.uuid(),
  reservationId: z.uuid(),
  reviewType: z.enum(REVIEW_TYPES),
  rating: z.number().int(),
  itemRating: z.number().int().nullable(),
  comment: z.string(),
  createdAt: z.string(),
  /** True once the other party has written theirs, or the waiting time is over. */
  revealed: z.boolean(),
  /** When it shows at the latest, whatever the other party does. */
  revealsAt: z.string(),
});
export type WrittenReview = z.infer<typeof writtenReview>;

export const writtenReviewList = z.object({ reviews: z.array(writtenReview) });
export const reviewResponse = z.object({ success: z.literal(true), review: writtenReview });
