import { describe, expect, it } from 'vitest';
import { BADGE_TYPES, BADGES } from '#shared/badges.ts';
import { BADGE_RULES, type BadgeFacts, earnedBadges } from './rules.ts';

const nothing: BadgeFacts = {
  isVerified: false,
  completedLends: 0,
  co2SavedGrams: 0,
  revealedReviewCount: 0,
  revealedAverageRating: null,
};
const facts = (overrides: Partial<BadgeFacts>): BadgeFacts => ({ ...nothing, ...overrides });

describe('badge rules', () => {
  it('earns nothing without any activity', () => {
    expect(earnedBadges(nothing)).toEqual([]);
  });

  it('first_lend: from the first completed lend', () => {
    expect(BADGE_RULES.first_lend(facts({ completedLends: 0 }))).toBe(false);
    expect(BADGE_RULES.first_lend(facts({ completedLends: 1 }))).toBe(true);
  });

  it('ten_lends: from the tenth completed lend', () => {
    expect(BADGE_RULES.ten_lends(facts({ completedLends: 9 }))).toBe(false);
    expect(BADGE_RULES.ten_lends(facts({ completedLends: 10 }))).toBe(true);
    expect(BADGE_RULES.ten_lends(facts({ completedLends: 11 }))).toBe(true);
  });

  it('top_rated: five or more shown reviews averaging 4.8 or more', () => {
    expect(BADGE_RULES.top_rated(facts({ revealedReviewCount: 4, revealedAverageRating: 5 }))).toBe(false);
    expect(BADGE_RULES.top_rated(facts({ revealedReviewCount: 5, revealedAverageRating: 4.8 }))).toBe(true);
    expect(BADGE_RULES.top_rated(facts({ revealedReviewCount: 5, revealedAverageRating: 4.79 }))).toBe(false);
    expect(BADGE_RULES.top_rated(facts({ revealedReviewCount: 30, revealedAverageRating: 4.9 }))).toBe(true);
    expect(BADGE_RULES.top_rated(facts({ revealedReviewCount: 5, revealedAverageRating: null }))).toBe(false);
  });

  it('co2_100kg: 100 kg (100,000 g) across the person’s lends and borrows', () => {
    expect(BADGE_RULES.co2_100kg(facts({ co2SavedGrams: 99_999 }))).toBe(false);
    expect(BADGE_RULES.co2_100kg(facts({ co2SavedGrams: 100_000 }))).toBe(true);
  });

  it('verified_student: a confirmed university e-mail', () => {
    expect(BADGE_RULES.verified_student(facts({ isVerified: false }))).toBe(false);
    expect(BADGE_RULES.verified_student(facts({ isVerified: true }))).toBe(true);
  });

  it('answers every earned badge in catalogue order, and the catalogue names and describes each', () => {
    expect(
      earnedBadges({
        isVerified: true,
        completedLends: 10,
        co2SavedGrams: 250_000,
        revealedReviewCount: 6,
        revealedAverageRating: 4.9,
      }),
    ).toEqual([...BADGE_TYPES]);
    for (const type of BADGE_TYPES) {
      expect(BADGES[type].name.length).toBeGreaterThan(0);
      expect(BADGES[type].description.length).toBeGreaterThan(0);
    }
    expect(BADGES.top_rated.description).toBe('5 or more reviews averaging 4.8 stars or better.');
  });
});
