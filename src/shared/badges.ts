// The badge catalogue (spec §3 user_badges, issue 6): what each badge is called and why it is
// earned. The rules that award them live in src/server/features/badges/rules.ts and read the same
// thresholds, so the description and the rule cannot drift apart.

export const BADGE_THRESHOLDS = {
  tenLends: 10,
  topRatedReviews: 5,
  topRatedAverage: 4.8,
  /** 100 kg of CO2e, in grams as the impact ledger counts it. */
  co2SavedGrams: 100_000,
} as const;

export const BADGE_TYPES = ['first_lend', 'ten_lends', 'top_rated', 'co2_100kg', 'verified_student'] as const;
export type BadgeType = (typeof BADGE_TYPES)[number];

export interface BadgeInfo {
  name: string;
  description: string;
}

export const BADGES: Record<BadgeType, BadgeInfo> = {
  first_lend: { name: 'First Lend', description: 'Lent an item to a classmate for the first time.' },
  ten_lends: {
    name: 'Super Lender',
    description: `Completed ${BADGE_THRESHOLDS.tenLends} lends.`,
  },
  top_rated: {
    name: 'Top Rated',
    description: `${BADGE_THRESHOLDS.topRatedReviews} or more reviews averaging ${BADGE_THRESHOLDS.topRatedAverage} stars or better.`,
  },
  co2_100kg: {
    name: 'Climate Saver',
    description: `Saved ${BADGE_THRESHOLDS.co2SavedGrams / 1000} kg of CO₂ by lending and borrowing instead of buying.`,
  },
  verified_student: {
    name: 'Verified Student',
    description: 'Confirmed their university e-mail address.',
  },
};

export function isBadgeType(value: string): value is BadgeType {
  return (BADGE_TYPES as readonly string[]).includes(value);
}

/** A stored badge's name and description; a type this version does not know reads as its own words. */
export function badgeInfo(badgeType: string): BadgeInfo {
  if (isBadgeType(badgeType)) return BADGES[badgeType];
  const name = badgeType
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
  return { name, description: '' };
}
