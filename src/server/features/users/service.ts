import { msg } from '@lingui/core/macro';
import { DEFAULT_LOCALE, type Locale } from '#shared/i18n.ts';
import type { ProfileResponse } from '#shared/schemas/users.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { badgeService } from '../badges/service.ts';
import { itemService } from '../items/service.ts';
import { reviewService } from '../reviews/service.ts';
import { universityService } from '../universities/service.ts';
import * as queries from './queries.ts';

// Spec §2 Profile and §7 GET /api/users/{id}: anyone may look; the Borrowed tab is the owner's alone.

export const userService = {
  async profile(
    db: Db,
    id: string,
    viewer: { id: string; isAdmin: boolean } | null,
    timeZone: string,
    /** The language of the answer's words (the badges'): the request's. */
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<ProfileResponse> {
    const own = viewer?.id === id;
    // Everything at once, the person too: one round trip's wait on PostgreSQL instead of two.
    const [user, items, reviews, rating, badges, availableNow, borrowed, cancellations] = await Promise.all([
      queries.findProfile(db, id),
      // Items a moderator hid stay on their owner's own profile (marked hidden) and the moderators' view.
      itemService.listOwned(db, id, own || Boolean(viewer?.isAdmin)),
      // Revealed reviews only, and the average over those alone.
      reviewService.received(db, id),
      reviewService.ratingSummary(db, id),
      badgeService.forProfile(db, id, locale),
      itemService.countAvailableNow(db, id, timeZone),
      own ? queries.listBorrowings(db, id) : Promise.resolve(undefined),
      queries.lenderCancellations(db, id),
    ]);
    if (!user) throw notFound(msg`User not found.`);
    return {
      user: {
        ...user,
        campusName: universityService.campusName(user.campus),
        createdAt: user.createdAt.toISOString(),
      },
      items,
      reviews,
      badges,
      stats: {
        itemsListed: items.length,
        availableNow,
        reviewCount: rating.count,
        averageRating: rating.average === null ? null : Math.round(rating.average * 10) / 10,
        lenderCancellations: cancellations,
      },
      ...(borrowed ? { borrowed } : {}),
    };
  },
};
