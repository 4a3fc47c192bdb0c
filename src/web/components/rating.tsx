import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Star } from 'lucide-react';
import type { Rating } from '#shared/schemas/items.ts';
import { cn } from '../lib/cn.ts';

// Ratings are the real averages of revealed reviews, drawn to the nearest half star.

/** 4.74 → 4.5, 4.75 → 5: what the stars draw. */
export const toHalfStars = (rating: number) => Math.max(0, Math.min(5, Math.round(rating * 2) / 2));

/** 4.5 → '4.5', 4 → '4', 4.94 → '4.9': the number written and announced (one decimal, as profiles). */
export const ratingText = (average: number) => String(Math.round(average * 10) / 10);

/**
 * Five stars drawn for `rating` to the nearest half. Announced as 'Rated N out of 5' unless
 * `decorative` (when the number is written or announced next to them).
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
  const { t } = useLingui();
  const shown = toHalfStars(rating);
  return (
    <span
      className="inline-flex text-amber-500"
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': t`Rated ${shown} out of 5` })}
    >
      {[1, 2, 3, 4, 5].map((n) => {
        const fill = n <= shown ? 'full' : n - 0.5 === shown ? 'half' : 'empty';
        return (
          <span key={n} data-star={fill} className="relative inline-flex">
            <Star aria-hidden="true" className={cn(className, 'fill-none text-stone-300')} />
            {fill !== 'empty' && (
              <span
                className={cn(
                  'absolute inset-y-0 start-0 overflow-hidden',
                  fill === 'half' ? 'w-1/2' : 'w-full',
                )}
              >
                <Star aria-hidden="true" className={cn(className, 'fill-current')} />
              </span>
            )}
          </span>
        );
      })}
    </span>
  );
}

/**
 * An item's or a lender's rating: stars, the average and the count, announced as 'Rated 4.5 out of 5,
 * 12 reviews'. Nothing at all without reviews.
 */
export function RatingSummary({
  rating,
  starClassName = 'h-3.5 w-3.5',
  className,
}: {
  rating: Rating | undefined;
  starClassName?: string;
  className?: string;
}) {
  const { t } = useLingui();
  if (!rating || rating.count === 0) return null;
  const average = ratingText(rating.average);
  const count = rating.count;
  return (
    <span
      role="img"
      aria-label={t`Rated ${average} out of 5, ${plural(count, { one: '# review', other: '# reviews' })}`}
      className={cn('inline-flex items-center gap-1', className)}
    >
      <Stars rating={rating.average} decorative className={starClassName} />
      <span aria-hidden="true" className="text-muted">
        <span className="font-semibold text-ink">{average}</span> ({rating.count})
      </span>
    </span>
  );
}
