import { t } from '@lingui/core/macro';
import type { WrittenReview } from '#shared/schemas/reviews.ts';
import { formatDate } from '../../../lib/item-labels.ts';

/** When a written review will show: once the other party's is in, or on its reveal day at the latest. */
export function revealNote(review: Pick<WrittenReview, 'revealsAt'>, revieweeName: string): string {
  const day = formatDate(review.revealsAt, 'MMM d');
  return t`Your review shows once ${revieweeName} has written theirs, or on ${day}.`;
}
