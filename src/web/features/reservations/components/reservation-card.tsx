import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarDays, Handshake, LockKeyhole, Wallet } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import type { PartyRole } from '#shared/booking/reservation-rules.ts';
import type { PickupMethod, ReservationStatus } from '#shared/constants.ts';
import { thumbnailOf } from '#shared/photos.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';
import { amountOf } from '../../../lib/item-labels.ts';
import { paths } from '../../../paths.ts';
import { coverImage, PLACEHOLDER_IMAGE } from '../../items/api.ts';
import { dayLabel } from '../dates.ts';
import type { ClaimAction, StatusUpdate } from '../queries.ts';
import { CardHoldNote } from './card-hold.tsx';
import { ClaimDetails } from './deposit-claim.tsx';
import { EarlyReturnNote } from './early-return.tsx';
import { ReservationActions } from './reservation-actions.tsx';

// Spec §2 My Reservations card and §4 reservation actions. The card only shows and asks; the page
// owns the calls (and their toasts), so every card is disabled while any update is in flight.

export type ReservationRole = PartyRole;

export interface ReservationCardProps {
  reservation: Reservation;
  /** The signed-in person: the borrower or the lender of this reservation. */
  viewerId: string;
  /** An update is in flight (any card's): every action button waits. */
  busy: boolean;
  onApprove: (id: string) => void;
  onDecline: (id: string) => void;
  /** Resolves when the server accepted the change, rejects with its error. */
  onUpdateStatus: (update: StatusUpdate) => Promise<unknown>;
  /** Report a problem, accept or dispute a claim; resolves when the server accepted it. */
  onClaimAction?: (action: ClaimAction) => Promise<unknown>;
  /** What other features add to the card (the review prompt of a completed reservation). */
  children?: ReactNode;
}

/** Spec §4/§9 badge colours: pending yellow, approved blue, active green, completed grey, else red. */
const STATUS_STYLES: Record<ReservationStatus, { label: MessageDescriptor; className: string }> = {
  pending: { label: msg`Pending`, className: 'bg-yellow-100 text-yellow-900' },
  approved: { label: msg`Approved`, className: 'bg-blue-100 text-blue-900' },
  active: { label: msg`Active`, className: 'bg-green-100 text-green-900' },
  // The return waiting for the lender, and a deposit claim open or in dispute.
  returned: { label: msg`Returned`, className: 'bg-teal-100 text-teal-900' },
  claimed: { label: msg`Claim open`, className: 'bg-orange-100 text-orange-900' },
  disputed: { label: msg`In dispute`, className: 'bg-orange-100 text-orange-900' },
  completed: { label: msg`Completed`, className: 'bg-stone-200 text-stone-800' },
  cancelled: { label: msg`Cancelled`, className: 'bg-red-100 text-red-900' },
  declined: { label: msg`Declined`, className: 'bg-red-100 text-red-900' },
};

export function ReservationStatusBadge({ status }: { status: ReservationStatus }) {
  const { i18n } = useLingui();
  const style = STATUS_STYLES[status];
  return (
    <span
      className={cn(
        'inline-flex shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold',
        style?.className ?? 'bg-red-100 text-red-900',
      )}
    >
      {style ? i18n._(style.label) : status}
    </span>
  );
}

/** How the item is handed over (the item's own words for it live in the items screens). */
const PICKUP_LABELS: Record<PickupMethod, MessageDescriptor> = {
  meetup: msg`Campus Meetup`,
  locker: msg`Smart Locker`,
};

const money = (n: number) => `$${n.toFixed(2)}`;

/**
 * Spec §2: '$X deposit' and/or '$Y rental', each only when above zero, joined by ' + ', and the
 * service fee on the rental as its own part (decision 055); else 'Free'.
 */
export function amountLine(depositAmount: string, rentalAmount: string, serviceFeeAmount = '0.00'): string {
  const depositValue = amountOf(depositAmount);
  const rentalValue = amountOf(rentalAmount);
  const feeValue = amountOf(serviceFeeAmount);
  const deposit = money(depositValue);
  const rental = money(rentalValue);
  const fee = money(feeValue);
  if (feeValue > 0 && depositValue > 0) return t`${deposit} deposit + ${rental} rental + ${fee} service fee`;
  if (feeValue > 0) return t`${rental} rental + ${fee} service fee`;
  if (depositValue > 0 && rentalValue > 0) return t`${deposit} deposit + ${rental} rental`;
  if (depositValue > 0) return t`${deposit} deposit`;
  if (rentalValue > 0) return t`${rental} rental`;
  return t`Free`;
}

export function ReservationCard({
  reservation: r,
  viewerId,
  busy,
  onApprove,
  onDecline,
  onUpdateStatus,
  onClaimAction = () => Promise.resolve(),
  children,
}: ReservationCardProps) {
  const { t, i18n } = useLingui();
  const role: ReservationRole = viewerId === r.providerId ? 'provider' : 'borrower';
  const other = role === 'borrower' ? r.provider : r.borrower;
  const title = r.item.title.trim() || t`Unknown Item`;
  const amounts = amountLine(r.depositAmount, r.rentalAmount, r.serviceFeeAmount);
  // The extra days' rental and the service fee on it, paid on their own payments.
  const extra = money(amountOf(r.extraRentalAmount) + amountOf(r.extraServiceFeeAmount));
  const otherLink = (
    <Link to={paths.profile(other.id)} className="font-semibold text-ink underline-offset-4 hover:underline">
      {other.fullName}
    </Link>
  );
  const PickupIcon = r.item.pickupMethod === 'locker' ? LockKeyhole : Handshake;
  const titleId = useId();

  return (
    <Card className="p-4 sm:p-5">
      <article aria-labelledby={titleId} className="flex gap-3 sm:gap-4">
        <Thumbnail images={r.item.images} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
            <h2 id={titleId} className="min-w-0 break-words text-lg font-semibold leading-snug text-ink">
              <Link
                to={paths.item(r.item.id)}
                className="rounded underline-offset-4 hover:text-brand-800 hover:underline"
              >
                {title}
              </Link>
            </h2>
            <span className="flex items-center">
              <span className="sr-only">{t`Status:`} </span>
              <ReservationStatusBadge status={r.status} />
              {r.overdue && (
                <span className="ms-1.5 inline-flex shrink-0 rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-bold text-red-900">
                  <Trans>Overdue</Trans>
                </span>
              )}
            </span>
          </div>

          <div className="mt-2 flex min-w-0 items-center gap-2 text-sm">
            <Avatar name={other.fullName} src={other.profileImage} size="sm" />
            <p className="min-w-0 text-stone-700">
              {role === 'borrower' ? (
                <Trans>Borrowing from {otherLink}</Trans>
              ) : (
                <Trans>Lending to {otherLink}</Trans>
              )}{' '}
              <span className="text-muted">@{other.username}</span>
            </p>
          </div>

          <ul className="mt-3 grid gap-1.5 text-sm text-stone-700 sm:grid-cols-2">
            <li className="flex items-center gap-2">
              <CalendarDays className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
              <span className="sr-only">{t`Dates:`} </span>
              {dayLabel(r.startDate, 'short')} - {dayLabel(r.endDate, 'short')}
            </li>
            <li className="flex items-center gap-2">
              <PickupIcon className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
              <span className="sr-only">{t`Pickup:`} </span>
              {i18n._(PICKUP_LABELS[r.item.pickupMethod] ?? PICKUP_LABELS.locker)}
            </li>
            <li className="flex items-center gap-2 sm:col-span-2">
              <Wallet className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
              <span className="sr-only">{t`Amount:`} </span>
              {/* Approved extensions are paid on their own, after the booking. */}
              {amountOf(r.extraRentalAmount) > 0 ? t`${amounts} + ${extra} for more days` : amounts}
            </li>
          </ul>
        </div>
      </article>

      {r.status === 'approved' && <PickupCode role={role} code={r.pickupCode} />}

      {r.status === 'declined' && r.declineReason && (
        <p className="mt-4 rounded-xl bg-red-50 p-3 text-sm text-red-900">
          <span className="font-semibold">{t`Reason:`} </span>
          {r.declineReason}
        </p>
      )}

      <CardHoldNote reservation={r} role={role} />

      <EarlyReturnNote reservation={r} role={role} />

      <ClaimDetails reservation={r} />

      {children}

      <ReservationActions
        reservation={r}
        role={role}
        busy={busy}
        onApprove={onApprove}
        onDecline={onDecline}
        onUpdateStatus={onUpdateStatus}
        onClaimAction={onClaimAction}
      />
    </Card>
  );
}

function Thumbnail({ images }: { images: readonly string[] }) {
  const cover = coverImage(images);
  return (
    <img
      src={cover ? thumbnailOf(cover) : PLACEHOLDER_IMAGE}
      alt=""
      loading="lazy"
      width={96}
      height={96}
      onError={(event) => {
        const img = event.currentTarget;
        if (cover && img.src.endsWith('-thumb.jpg')) img.src = cover;
        else if (!img.src.endsWith(PLACEHOLDER_IMAGE)) img.src = PLACEHOLDER_IMAGE;
      }}
      className="h-16 w-16 shrink-0 rounded-xl bg-stone-100 object-cover sm:h-24 sm:w-24"
    />
  );
}

/**
 * Spec §2/§4: the code shows while approved. The borrower shows it at the handover; the lender
 * types it in under 'Picked Up', so the lender's card says where to get it rather than showing it.
 */
function PickupCode({ role, code }: { role: ReservationRole; code: string | null }) {
  return (
    // data-toast-avoid: the code is what the approval produced; no toast covers it (decision 026).
    <div className="mt-4 rounded-xl border border-blue-200 bg-blue-50 p-3" data-toast-avoid="">
      <p className="text-sm font-semibold text-blue-950">
        <Trans>Pickup Code:</Trans>
      </p>
      {role === 'borrower' && code ? (
        <>
          <p aria-hidden="true" className="mt-1 font-mono text-3xl font-bold tracking-[0.3em] text-ink">
            {code}
          </p>
          {/* Read digit by digit, not as a six-figure number. */}
          <p className="sr-only">{code.split('').join(' ')}</p>
          <p className="mt-1 text-sm text-blue-950">
            <Trans>Show this code to the lender when you collect the item.</Trans>
          </p>
        </>
      ) : (
        <p className="mt-1 text-sm text-blue-950">
          <Trans>The borrower shows you a 6-digit code at pickup. Enter it under Picked Up.</Trans>
        </p>
      )}
    </div>
  );
}
