import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog } from 'radix-ui';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { LIMITS, REVIEW_REVEAL_DAYS } from '#shared/constants.ts';
import { reviewInput, type WrittenReview } from '#shared/schemas/reviews.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { inputClasses } from '../../../components/ui/input.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import { applyServerErrors } from '../../auth/components/apply-server-errors.ts';
import { useCreateReview } from '../api.ts';
import { revealNote } from './review-status.ts';
import { StarRatingInput } from './star-rating-input.tsx';

type FormValues = z.input<typeof reviewInput>;
type Payload = z.output<typeof reviewInput>;

export interface ReviewSubject {
  reservationId: string;
  /** Whom the review is about: the lender (and the item) for a borrower, the borrower for a lender. */
  revieweeName: string;
  itemTitle: string;
  asBorrower: boolean;
}

/** Issue 6: 1-5 stars and a comment for the other party of a completed reservation. */
export function ReviewDialog({
  subject,
  open,
  onOpenChange,
}: {
  subject: ReviewSubject;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const createReview = useCreateReview();
  const ratingId = useId();
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
    resolver: zodResolver(reviewInput),
    defaultValues: { reservationId: subject.reservationId, rating: undefined, comment: '' },
  });
  const commentLength = watch('comment')?.length ?? 0;

  const changeOpen = (next: boolean) => {
    if (createReview.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const onSubmit = handleSubmit((values) =>
    createReview.mutate(values, {
      onSuccess: ({ review }) => {
        toast({ title: 'Review submitted', description: submittedMessage(review, subject.revieweeName) });
        reset();
        onOpenChange(false);
      },
      onError: (failure) => {
        applyServerErrors(failure, setError, ['rating', 'comment']);
        toast({
          variant: 'destructive',
          title: 'Review failed',
          description: errorMessage(failure, 'Please try again.'),
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
          <Dialog.Title className="text-lg font-bold text-ink">Review {subject.revieweeName}</Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">
            {subject.asBorrower
              ? `How was borrowing ${subject.itemTitle} from ${subject.revieweeName}? Rate them and the item.`
              : `How was lending ${subject.itemTitle} to ${subject.revieweeName}?`}{' '}
            Your review shows once they have reviewed you too, or after {REVIEW_REVEAL_DAYS} days.
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
                />
              )}
            />
            <Field
              id={commentId}
              label="Comment"
              error={errors.comment?.message}
              hint={`${commentLength}/${LIMITS.reviewCommentMax} characters`}
            >
              <textarea
                {...describedBy(commentId, errors.comment?.message, true)}
                {...register('comment')}
                rows={4}
                maxLength={LIMITS.reviewCommentMax}
                placeholder={
                  subject.asBorrower
                    ? 'Was the item as described? Was the handover easy?'
                    : 'Was the item returned on time and in good condition?'
                }
                className={cn(inputClasses.replace('h-11 ', ''), 'min-h-28 py-2 leading-relaxed')}
              />
            </Field>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.Close className={buttonClasses('outline')} disabled={createReview.isPending}>
                Cancel
              </Dialog.Close>
              <Button type="submit" disabled={createReview.isPending}>
                {createReview.isPending ? 'Submitting...' : 'Submit Review'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function submittedMessage(review: WrittenReview, revieweeName: string): string {
  return review.revealed
    ? 'Thanks! Both reviews now show on your profiles.'
    : `Thanks! ${revealNote(review, revieweeName)}`;
}
