import { Trans, useLingui } from '@lingui/react/macro';
import { MessageSquarePlus, MessageSquareText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Reservation } from '#shared/schemas/reservations.ts';
import type { WrittenReview } from '#shared/schemas/reviews.ts';
import { Stars } from '../../../components/rating.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../paths.ts';
import { ReviewDialog } from './review-dialog.tsx';
import { revealNote } from './review-status.ts';

/**
 * On a completed reservation's card in My Reservations: 'Leave a review' until the viewer
 * has written theirs, then what they wrote and when it shows. Nothing for other statuses.
 */
export function ReservationReview({
  reservation: r,
  viewerId,
  written,
  loading,
  autoOpen = false,
  onDialogClosed,
}: {
  reservation: Reservation;
  viewerId: string;
  /** The viewer's review of this reservation, if written. */
  written: WrittenReview | undefined;
  /** The viewer's reviews are still loading: too early to offer one. */
  loading: boolean;
  /** Opened from a 'Leave a review' notification: the dialog opens by itself. */
  autoOpen?: boolean;
  onDialogClosed?: () => void;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const canWrite = r.status === 'completed' && !loading && !written;
  useEffect(() => {
    if (autoOpen && canWrite) setOpen(true);
  }, [autoOpen, canWrite]);

  if (r.status !== 'completed' || loading) return null;
  const asBorrower = viewerId === r.borrowerId;
  const other = asBorrower ? r.provider : r.borrower;
  const name = other.fullName;

  if (written) {
    return (
      <div className="mt-4 flex gap-3 rounded-xl border border-brand-200 bg-brand-50 p-3 text-sm">
        <MessageSquareText className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
            <Trans>You reviewed {name}</Trans>
            <Stars rating={written.rating} />
          </p>
          {written.itemRating !== null && (
            <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
              <Trans>and the item</Trans>
              <Stars rating={written.itemRating} />
            </p>
          )}
          <p className="text-stone-700">
            {written.revealed ? (
              <Trans>
                Your review shows on{' '}
                <Link
                  to={paths.profile(other.id)}
                  className="font-semibold text-brand-800 underline underline-offset-4"
                >
                  {name}'s profile
                </Link>
                .
              </Trans>
            ) : (
              revealNote(written, other.fullName)
            )}
          </p>
        </div>
      </div>
    );
  }

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) onDialogClosed?.();
  };

  return (
    <div className="mt-4 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-3 text-sm text-amber-950">
        <MessageSquarePlus className="mt-0.5 h-5 w-5 shrink-0 text-amber-800" aria-hidden="true" />
        <span>
          <span className="font-semibold">
            <Trans>How did it go?</Trans>
          </span>{' '}
          {asBorrower ? (
            <Trans>Leave a review for {name} and the item.</Trans>
          ) : (
            <Trans>Leave a review for {name}.</Trans>
          )}
        </span>
      </p>
      <Button onClick={() => changeOpen(true)} className="shrink-0">
        <Trans>Leave a review</Trans>
      </Button>
      <ReviewDialog
        subject={{
          reservationId: r.id,
          revieweeName: other.fullName,
          itemTitle: r.item.title.trim() || t`Unknown Item`,
          asBorrower,
        }}
        open={open}
        onOpenChange={changeOpen}
      />
    </div>
  );
}
