import { MessageSquare, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Review } from '#shared/schemas/items.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDate } from './item-labels.ts';

/**
 * Five stars, `rating` of them filled. Announced as 'Rated N out of 5' unless `decorative` (when
 * the number is written next to them).
 */
export function Stars({
  rating,
  decorative = false,
  className = 'h-4 w-4',
}: {
  rating: number;
  decorative?: boolean;
  className?: string;
}) {
  const filled = Math.max(0, Math.min(5, Math.floor(rating)));
  return (
    <span
      className="inline-flex text-amber-500"
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': `Rated ${filled} out of 5` })}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn(className, n <= filled ? 'fill-current' : 'fill-none text-stone-300')}
        />
      ))}
    </span>
  );
}

/** Spec §2: reviews with their stars, comment, date and reviewer; `empty` when there are none. */
export function ReviewsList({
  reviews,
  empty = 'No reviews yet',
}: {
  reviews: readonly Review[];
  empty?: ReactNode;
}) {
  if (reviews.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-2xl border border-dashed border-stone-300 px-6 py-10 text-center">
        <MessageSquare className="h-6 w-6 text-stone-500" aria-hidden="true" />
        <p className="mt-2 text-muted">{empty}</p>
      </div>
    );
  }
  return (
    <ul className="space-y-3">
      {reviews.map((review) => (
        <li key={review.id} className="rounded-2xl border border-line bg-white p-4">
          <div className="flex items-start gap-3">
            <Avatar name={review.reviewer.fullName} size="sm" />
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                <p className="font-semibold text-ink">{review.reviewer.fullName}</p>
                <time dateTime={review.createdAt} className="text-sm text-muted">
                  {formatDate(review.createdAt)}
                </time>
              </div>
              <div className="mt-1">
                <Stars rating={review.rating} />
              </div>
              <p className="mt-2 whitespace-pre-line break-words text-stone-700">{review.comment}</p>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
