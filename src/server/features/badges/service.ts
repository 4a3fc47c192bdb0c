import { msg } from '@lingui/core/macro';
import { BADGE_TYPES, BADGES, type BadgeType, badgeInfo } from '#shared/badges.ts';
import type { Locale } from '#shared/i18n.ts';
import type { Badge } from '#shared/schemas/users.ts';
import type { Db } from '../../db/client.ts';
import { inLocale } from '../../i18n.ts';
import { wording } from '../../wordings.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';
import { earnedBadges } from './rules.ts';

// Badges are awarded inside the transaction of the event that earns them: a completed
// reservation, a review, a verified e-mail. Callers pass their transaction; the award and its
// notification commit or roll back with the event.

/**
 * Evaluates every rule for the person against the database as `tx` sees it and stores the badges
 * earned but not yet held, each with a 'badge_earned' notification. Answers the new ones. Safe to
 * call any number of times: a badge is stored once per person.
 */
/** The notice of a new badge; the badge's words are read inside, in the reader's language. */
const badgeEarnedText = wording('badges.earned', (type: BadgeType): NoticeText => {
  const { name, description } = BADGES[type];
  return {
    title: msg`New badge: ${name}`,
    message: msg`${description} The ${name} badge now shows on your profile.`,
  };
});

export async function awardBadges(tx: Db, userId: string, now = new Date()): Promise<BadgeType[]> {
  const held = new Set(await queries.heldBadgeTypes(tx, userId));
  if (BADGE_TYPES.every((type) => held.has(type))) return [];
  const facts = await queries.badgeFacts(tx, userId, now);
  if (!facts) return [];
  const missing = earnedBadges(facts).filter((type) => !held.has(type));
  const awarded = await queries.insertBadges(tx, userId, missing);
  for (const type of awarded) {
    await notificationService.notify(tx, {
      userId,
      type: 'badge_earned',
      text: () => badgeEarnedText(type),
    });
  }
  return awarded;
}

export const badgeService = {
  award: awardBadges,

  /** Spec §3 Profile badges (id, badgeType), with the catalogue's name and description in `locale`. */
  async forProfile(db: Db, userId: string, locale: Locale): Promise<Badge[]> {
    return badgeService.named(await queries.listForUser(db, userId), locale);
  },

  /** A person's badges as part of another feature's one statement (the profile's), and its decoder. */
  inStatement: {
    list: queries.badgesJson,
    decode: (json: unknown, locale: Locale): Badge[] =>
      badgeService.named(queries.decodeBadges(json), locale),
  },

  /** A person's badge rows (listForUser's, or a profile statement's) with their names in `locale`. */
  named(rows: { id: string; badgeType: string; earnedAt: Date }[], locale: Locale): Badge[] {
    return inLocale(locale, () =>
      rows.map((b) => ({
        id: b.id,
        badgeType: b.badgeType as BadgeType,
        ...badgeInfo(b.badgeType as BadgeType),
        earnedAt: b.earnedAt.toISOString(),
      })),
    );
  },
};
