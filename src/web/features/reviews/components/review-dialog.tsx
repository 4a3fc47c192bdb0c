import { zodResolver } from '@hookform/resolvers/zod';
import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { LIMITS, REVIEW_REVEAL_DAYS } from '#shared/constants.ts';
import { borrowerReviewInput, reviewInput, type WrittenReview } from '#shared/schemas/reviews.ts';
import { StarRatingInput } from '../../../components/star-rating-input.tsx';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { inputClasses } from '../../../components/ui/input.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/apply-server-errors.ts';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import { useCreateReview } from '../api.ts';
import { revealNote } from './review-status.ts';

type FormValues = z.input<typeof reviewInput>;
type Payload = z.output<typeof reviewInput>;

export interface ReviewSubject {
  reservationId: string;
  /** Whom the review is about: the lender (and the item) for a borrower, the borrower for a lender. */
  revieweeName: string;
  itemTitle: string;
  asBorrower: boolean;
}

/** 1-5 stars and a comment for the other party of a completed reservation. */
export function ReviewDialog({
  subject,
  open,
  onOpenChange,
}: {
  subject: ReviewSubject;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useLingui();
  const createReview = useCreateReview();
  const ratingId = useId();
  const itemRatingId = useId();
  const commentId = useId();
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<FormValues, unknown, Payload>({
    // A borrower rates the lender and the item apart (decision 053); a lender rates the borrower.
    resolver: zodResolver(subject.asBorrower ? borrowerReviewInput : reviewInput),
    defaultValues: { reservationId: subject.reservationId, rating: undefined, comment: '' },
  });
  const commentLength = watch('comment')?.length ?? 0;
  const commentMax = LIMITS.reviewCommentMax;
  const { revieweeName: name, itemTitle: item } = subject;
  const revealDays = REVIEW_REVEAL_DAYS;

  const changeOpen = (next: boolean) => {
    if (createReview.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const onSubmit = handleSubmit((values) =>
    createReview.mutate(values, {
      onSuccess: ({ review }) => {
        toast({ title: t`Review submitted`, description: submittedMessage(review, subject.revieweeName) });
        reset();
        onOpenChange(false);
      },
      onError: (failure) => {
        applyServerErrors(failure, setError, ['rating', 'itemRating', 'comment']);
        toast({
          variant: 'destructive',
          title: t`Review failed`,
          description: errorMessage(failure, t`Please try again.`),
        });
        // Already reviewed (another tab, say): nothing left to write here.
        if (failure instanceof ApiError && failure.status === 409) onOpenChange(false);
      },
    }),
  );

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl sm:p-6">
          <Dialog.Title className="text-lg font-bold text-ink">
            <Trans>Review {name}</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">
            {subject.asBorrower ? (
              <Trans>
                How was borrowing {item} from {name}? Rate them and the item.
              </Trans>
            ) : (
              <Trans>
                How was lending {item} to {name}?
              </Trans>
            )}{' '}
            <Trans>Your review shows once they have reviewed you too, or after {revealDays} days.</Trans>
          </Dialog.Description>
          <form onSubmit={onSubmit} noValidate className="mt-5 space-y-5">
            <Controller
              control={control}
              name="rating"
              render={({ field }) => (
                <StarRatingInput
                  id={ratingId}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={errors.rating?.message}
                  disabled={createReview.isPending}
                  legend={subject.asBorrower ? t`${name}, the lender` : undefined}
                />
              )}
            />
            {subject.asBorrower && (
              <Controller
                control={control}
                name="itemRating"
                render={({ field }) => (
                  <StarRatingInput
                    id={itemRatingId}
                    name={field.name}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={errors.itemRating?.message}
                    disabled={createReview.isPending}
                    legend={t`The item, ${item}`}
                  />
                )}
              />
            )}
            <Field
              id={commentId}
              label={t`Comment`}
              error={errors.comment?.message}
              hint={t`${commentLength}/${commentMax} characters`}
            >
              <textarea
                {...describedBy(commentId, errors.comment?.message, true)}
                {...register('comment')}
                rows={4}
                maxLength={LIMITS.reviewCommentMax}
                placeholder={
                  subject.asBorrower
                    ? t`Was the item as described? Was the handover easy?`
                    : t`Was the item returned on time and in good condition?`
                }
                className={cn(inputClasses.replace('h-11 ', ''), 'min-h-28 py-2 leading-relaxed')}
              />
            </Field>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.Close className={buttonClasses('outline')} disabled={createReview.isPending}>
                <Trans>Cancel</Trans>
              </Dialog.Close>
              <Button type="submit" disabled={createReview.isPending}>
                {createReview.isPending ? <Trans>Submitting...</Trans> : <Trans>Submit Review</Trans>}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function submittedMessage(review: WrittenReview, revieweeName: string): string {
  if (review.revealed) return translate`Thanks! Both reviews now show on your profiles.`;
  const note = revealNote(review, revieweeName);
  return translate`Thanks! ${note}`;
}
