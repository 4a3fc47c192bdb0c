import { msg, plural } from '@lingui/core/macro';
import { wording } from '../../wordings.ts';
import type { NoticeText } from '../notifications/service.ts';

// The words of a saved search's notification. Its values (the search, then each listing's id and title)
// are also what the e-mail links from (deliveries/notification-emails.ts, listingsTold): keep that order.

/** Titles named in the message; the rest are counted (the e-mail links every one). */
const NAMED = 3;

export const matchesText = wording(
  'saved-searches.matches',
  (searchQuery: string, listings: { id: string; title: string }[]): NoticeText => {
    const count = listings.length;
    const named = listings
      .slice(0, NAMED)
      .map((listing) => `“${listing.title}”`)
      .join(', ');
    const more = count - Math.min(count, NAMED);
    return {
      title:
        count === 1
          ? msg`New match for “${searchQuery}”`
          : msg`${plural(count, { one: '# new match', other: '# new matches' })} for “${searchQuery}”`,
      message:
        more > 0
          ? msg`Just listed on your campus: ${named} and ${plural(more, { one: '# more', other: '# more' })}.`
          : msg`Just listed on your campus: ${named}.`,
    };
  },
);
