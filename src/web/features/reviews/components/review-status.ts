import type { WrittenReview } from '#shared/schemas/reviews.ts';
import { formatDate } from '../../items/components/item-labels.ts';

/** When a written review will show: once the other party's is in, or on its reveal day at the latest. */
export function revealNote(review: Pick<WrittenReview, 'revealsAt'>, revieweeName: string): string {
  return `Your review shows once ${revieweeName} has written theirs, or on ${formatDate(review.revealsAt, 'MMM d')}.`;
}
