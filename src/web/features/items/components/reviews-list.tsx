import { Trans, useLingui } from '@lingui/react/macro';
import { MessageSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Review } from '#shared/schemas/reviews.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Stars } from '../../../components/rating.tsx';
import { formatDate } from '../../../lib/item-labels.ts';
import { paths } from '../../../paths.ts';

/**
 * Spec §2: reviews with their stars, comment, date and reviewer; `empty` when there are none. With
 * `showContext` (a profile) each says which reservation it was about ('Borrowed …' / 'Lent …').
 */
export function ReviewsList({
  reviews,
  empty,
  showContext = false,
  ratingOf = 'person',
}: {
  reviews: readonly Review[];
  /** What an empty list says; 'No reviews yet' unless given. */
  empty?: ReactNode;
  showContext?: boolean;
  /** Whose stars each shows: the reviewed person's, or (an item page) the item's own (decision 053). */
  ratingOf?: 'person' | 'item';
}) {
  const { t } = useLingui();
  if (reviews.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-2xl border border-dashed border-stone-300 px-6 py-10 text-center">
        <MessageSquare className="h-6 w-6 text-stone-500" aria-hidden="true" />
        <p className="mt-2 text-muted">{empty ?? <Trans>No reviews yet</Trans>}</p>
      </div>
    );
  }
  return (
    <ul className="space-y-3">
      {reviews.map((review) => {
        const reviewer = review.reviewer.fullName;
        const itemTitle = review.item.title;
        return (
          <li key={review.id} className="rounded-2xl border border-line bg-white p-4">
            <article aria-label={t`Review by ${reviewer}`} className="flex items-start gap-3">
              <Avatar name={review.reviewer.fullName} src={review.reviewer.profileImage} size="sm" />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <p className="min-w-0 break-words">
                    <Link
                      to={paths.profile(review.reviewer.id)}
                      className="font-semibold text-ink underline-offset-4 hover:underline"
                    >
                      {review.reviewer.fullName}
                    </Link>{' '}
                    <span className="text-sm text-muted">@{review.reviewer.username}</span>
                  </p>
                  <time dateTime={review.createdAt} className="text-sm text-muted">
                    {formatDate(review.createdAt)}
                  </time>
                </div>
                <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
                  <Stars
                    rating={ratingOf === 'item' ? (review.itemRating ?? review.rating) : review.rating}
                  />
                  {showContext && (
                    <span className="text-sm text-stone-700">
                      {review.reviewType === 'borrower_to_lender' ? (
                        <Trans>
                          Borrowed <span className="font-medium">{itemTitle}</span>
                        </Trans>
                      ) : (
                        <Trans>
                          Lent <span className="font-medium">{itemTitle}</span>
                        </Trans>
                      )}
                    </span>
                  )}
                </div>
                <p className="mt-2 whitespace-pre-line break-words text-stone-700">{review.comment}</p>
              </div>
            </article>
          </li>
        );
      })}
    </ul>
  );
}
