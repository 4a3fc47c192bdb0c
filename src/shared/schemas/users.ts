import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { item } from './items.ts';
import { review } from './reviews.ts';

/** What anyone may see of a person (no e-mail). */
export const publicProfile = z.object({
  id: z.uuid(),
  username: z.string(),
  fullName: z.string(),
  campus: z.string(),
  campusName: z.string(),
  profileImage: z.string().nullable(),
  isVerified: z.boolean(),
  createdAt: z.string(),
});
export type PublicProfile = z.infer<typeof publicProfile>;

/** Spec §3 (id, badgeType), with the catalogue's name and description (src/shared/badges.ts). */
export const badge = z.object({
  id: z.uuid(),
  badgeType: z.string(),
  name: z.string(),
  description: z.string(),
  earnedAt: z.string(),
});
export type Badge = z.infer<typeof badge>;

/** A reservation the profile's Borrowed tab lists (own profile only). */
export const borrowing = z.object({
  id: z.uuid(),
  status: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  item: z.object({ id: z.uuid(), title: z.string(), images: z.array(z.string()) }).nullable(),
  provider: z.object({ id: z.uuid(), fullName: z.string(), username: z.string() }),
});
export type Borrowing = z.infer<typeof borrowing>;

export const profileResponse = z.object({
  user: publicProfile,
  items: z.array(item),
  reviews: z.array(review),
  badges: z.array(badge),
  stats: z.object({
    itemsListed: z.number().int(),
    availableNow: z.number().int(),
    reviewCount: z.number().int(),
    /** Null until someone has reviewed them. */
    averageRating: z.number().nullable(),
    /** Bookings this lender approved, and how many of them they cancelled themselves. */
    lenderCancellations: z.object({ cancelled: z.number().int(), approved: z.number().int() }),
  }),
  /** Present only on one's own profile. */
  borrowed: z.array(borrowing).optional(),
});
export type ProfileResponse = z.infer<typeof profileResponse>;
export const userIdParams = z.object({ id: z.uuid({ error: () => t`User not found` }) });
