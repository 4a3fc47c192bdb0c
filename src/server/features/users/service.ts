import { msg } from '@lingui/core/macro';
import { campusToday } from '#shared/calendar.ts';
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

/** The other features' parts of the profile's one statement. */
const profileParts: queries.ProfileParts = {
  items: itemService.inStatement.owned,
  availableNow: itemService.inStatement.availableNowCount,
  reviews: reviewService.inStatement.received,
  rating: reviewService.inStatement.ratingSummary,
  badges: badgeService.inStatement.list,
};

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
    // Everything in one prepared statement: one checkout, and a plan PostgreSQL keeps. Items a moderator
    // hid stay on their owner's own profile (marked hidden) and the moderators' view; reviews are the
    // revealed ones only, and the average is over those alone.
    const view = own ? 'own' : viewer?.isAdmin ? 'moderator' : 'public';
    const page = await queries.findProfilePage(db, id, view, new Date(), campusToday(timeZone), profileParts);
    if (!page) throw notFound(msg`User not found.`);
    const { user, availableNow, borrowings: borrowed, cancellations } = page;
    const items = itemService.inStatement.decodeOwned(page.items);
    const reviews = reviewService.inStatement.decodeReviews(page.reviews);
    const rating = reviewService.inStatement.decodeRatingSummary(page.rating);
    const badges = badgeService.inStatement.decode(page.badges, locale);
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
