import { z } from 'zod';
import { LIMITS, REVIEW_TYPES } from '../constants.ts';
import { plainText } from './fields.ts';

// Reviews (spec §3, §5, issue 6): one per party and completed reservation, hidden until both are
// written or REVIEW_REVEAL_DAYS have passed.

const ratingMessage = `Rating must be a whole number from ${LIMITS.ratingMin} to ${LIMITS.ratingMax}`;

/** POST /api/reviews; the form in My Reservations uses the same rules. */
export const reviewInput = z.object({
  reservationId: z.uuid('Reservation not found'),
  rating: z
    .number({ error: 'Please choose a star rating' })
    .int(ratingMessage)
    .min(LIMITS.ratingMin, ratingMessage)
    .max(LIMITS.ratingMax, ratingMessage),
  comment: plainText('Comment is required')
    .trim()
    .min(1, 'Comment is required')
    .max(LIMITS.reviewCommentMax, `Comment must be at most ${LIMITS.reviewCommentMax} characters`),
});
export type ReviewInput = z.input<typeof reviewInput>;

/** A revealed review as item pages and profiles show it (spec §2, §3: with the reviewer's names). */
export const review = z.object({
  id: z.uuid(),
  rating: z.number().int(),
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
