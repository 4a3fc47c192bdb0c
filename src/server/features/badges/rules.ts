import { BADGE_THRESHOLDS, BADGE_TYPES, type BadgeType } from '#shared/badges.ts';

// The badge rules, one predicate per badge over facts read from the database. Pure, so each
// rule is tested on its own; badges/service.ts gathers the facts and stores what is newly earned.

export interface BadgeFacts {
  isVerified: boolean;
  /** Reservations this person lent that reached 'completed'. */
  completedLends: number;
  /** Sum of co2_saved_grams over the impact ledger rows where they lent or borrowed. */
  co2SavedGrams: number;
  /** Only reviews that show (both written, or the waiting time over) count, as on the profile. */
  revealedReviewCount: number;
  revealedAverageRating: number | null;
}

export const BADGE_RULES: Record<BadgeType, (facts: BadgeFacts) => boolean> = {
  first_lend: (f) => f.completedLends >= 1,
  ten_lends: (f) => f.completedLends >= BADGE_THRESHOLDS.tenLends,
  top_rated: (f) =>
    f.revealedReviewCount >= BADGE_THRESHOLDS.topRatedReviews &&
    f.revealedAverageRating !== null &&
    f.revealedAverageRating >= BADGE_THRESHOLDS.topRatedAverage,
  co2_100kg: (f) => f.co2SavedGrams >= BADGE_THRESHOLDS.co2SavedGrams,
  verified_student: (f) => f.isVerified,
};

/** Every badge these facts earn, in catalogue order. */
export function earnedBadges(facts: BadgeFacts): BadgeType[] {
  return BADGE_TYPES.filter((type) => BADGE_RULES[type](facts));
}
