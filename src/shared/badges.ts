import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import './i18n.ts';

// The badge catalogue (spec §3 user_badges): what each badge is called and why it is
// earned. The rules that award them live in src/server/features/badges/rules.ts and read the same
// thresholds, so the description and the rule cannot drift apart. Written in the active
// language each time they are read (the page's; on the server the reader's).

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

const { tenLends, topRatedReviews, topRatedAverage } = BADGE_THRESHOLDS;
const co2Kg = BADGE_THRESHOLDS.co2SavedGrams / 1000;

/** Each badge's name and description as `msg` descriptors. */
export const BADGE_MESSAGES: Record<BadgeType, { name: MessageDescriptor; description: MessageDescriptor }> =
  {
    first_lend: { name: msg`First Lend`, description: msg`Lent an item to a classmate for the first time.` },
    ten_lends: { name: msg`Super Lender`, description: msg`Completed ${tenLends} lends.` },
    top_rated: {
      name: msg`Top Rated`,
      description: msg`${topRatedReviews} or more reviews averaging ${topRatedAverage} stars or better.`,
    },
    co2_100kg: {
      name: msg`Climate Saver`,
      description: msg`Saved ${co2Kg} kg of CO₂ by lending and borrowing instead of buying.`,
    },
    verified_student: {
      name: msg`Verified Student`,
      description: msg`Confirmed their university e-mail address.`,
    },
  };

function written(type: BadgeType): BadgeInfo {
  return {
    get name() {
      return i18n._(BADGE_MESSAGES[type].name);
    },
    get description() {
      return i18n._(BADGE_MESSAGES[type].description);
    },
  };
}

/** Each badge's name and description, written in the active language when read. */
export const BADGES: Readonly<Record<BadgeType, BadgeInfo>> = Object.freeze(
  Object.fromEntries(BADGE_TYPES.map((type) => [type, written(type)])) as Record<BadgeType, BadgeInfo>,
);

export function isBadgeType(value: string): value is BadgeType {
  return (BADGE_TYPES as readonly string[]).includes(value);
}

/**
 * A stored badge's name and description in the active language (plain values, written now); a type
 * this version does not know reads as its own words.
 */
export function badgeInfo(badgeType: string): BadgeInfo {
  if (isBadgeType(badgeType)) {
    const { name, description } = BADGES[badgeType];
    return { name, description };
  }
  const name = badgeType
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
  return { name, description: '' };
}
