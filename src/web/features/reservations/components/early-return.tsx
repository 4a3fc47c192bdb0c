import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarCheck } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import {
  type EarlyReturnBooking,
  type EarlyReturnRefund,
  earlyReturnRefund,
  earlyReturnSentence,
} from '#shared/booking/early-return.ts';
import { centsToDecimal, toCents } from '#shared/booking/pricing.ts';
import { campusToday } from '#shared/calendar.ts';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { formatDayLabel } from '#shared/format.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';

// Decision 034: returning before the last day ends the booking that day and refunds the unused full
// rental periods by the item's policy. The borrower's "Item Returned" says so, with the exact amount,
// before anything happens (the server's own rule, src/shared/early-return.ts); the card says afterwards
// what it did.

/** The reservation as the shared rule reads it. */
function bookingOf(r: Reservation): EarlyReturnBooking {
  return {
    startDate: r.startDate,
    endDate: r.endDate,
    rentalPeriod: r.rentalPeriod,
    cancellationPolicy: r.cancellationPolicy,
    payments: r.rentalPayments.map((p) => ({
      fromEndDate: p.fromEndDate,
      endDate: p.endDate,
      rentalCents: toCents(p.rentalAmount) ?? 0,
    })),
  };
}

/** What returning today (campus calendar) would do: null when today is the last day or later. */
export function earlyReturnToday(r: Reservation): EarlyReturnRefund | null {
  return earlyReturnRefund(bookingOf(r), campusToday(DEFAULT_CAMPUS_TIME_ZONE).date);
}

/** A button that, before the booking's last day, first asks in a dialog what the early return does. */
function EarlyReturnButton({
  label,
  busy,
  onConfirm,
  ask,
}: {
  label: string;
  busy: boolean;
  /** With the refund the dialog showed, when it asked: the server goes ahead only on that amount. */
  onConfirm: (earlyRefund?: string) => void;
  ask: {
    title: string;
    sentence: string;
    after: string;
    confirm: string;
    cancel: string;
    refund: EarlyReturnRefund;
  } | null;
}) {
  if (!ask) {
    return (
      <Button onClick={() => onConfirm()} disabled={busy}>
        {label}
      </Button>
    );
  }
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button disabled={busy}>{label}</Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-ink">{ask.title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">{ask.sentence}</AlertDialog.Description>
          <p className="mt-2 text-sm text-stone-700">{ask.after}</p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('outline')}>{ask.cancel}</AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClasses()}
              onClick={() => onConfirm(centsToDecimal(ask.refund.refundCents)!)}
              disabled={busy}
            >
              {ask.confirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * The borrower's "Item Returned": straight on when the booking ends today or has ended; before its last
 * day, a confirmation that says what the early return frees and refunds.
 */
export function ItemReturned({
  reservation: r,
  busy,
  onConfirm,
}: {
  reservation: Reservation;
  busy: boolean;
  onConfirm: (earlyRefund?: string) => void;
}) {
  const { t } = useLingui();
  const early = earlyReturnToday(r);
  return (
    <EarlyReturnButton
      label={t`Item Returned`}
      busy={busy}
      onConfirm={onConfirm}
      ask={
        early && {
          title: t`Return it early?`,
          // The refund's sentence is src/shared's, the server's own rule (its own catalogue).
          sentence: earlyReturnSentence(bookingOf(r), early),
          after: t`The lender then confirms it came back in good condition, and your deposit comes back as usual.`,
          confirm: t`Return Early`,
          cancel: t`Keep Borrowing`,
          refund: early,
        }
      }
    />
  );
}

/**
 * The lender's "Returned in good condition". Of a borrow still out before its last day it is an early
 * return too, and gives the borrower the unused rental back from the lender's earning: the lender is
 * told the amount first. After the borrower's "Item Returned" the booking already ended: straight on.
 */
export function ReturnedInGoodCondition({
  reservation: r,
  busy,
  onConfirm,
}: {
  reservation: Reservation;
  busy: boolean;
  onConfirm: (earlyRefund?: string) => void;
}) {
  const { t } = useLingui();
  const early = r.status === 'active' ? earlyReturnToday(r) : null;
  return (
    <EarlyReturnButton
      label={t`Returned in good condition`}
      busy={busy}
      onConfirm={onConfirm}
      ask={
        early && {
          title: t`It came back early?`,
          sentence: earlyReturnSentence(bookingOf(r), early, { borrowerName: r.borrower.fullName }),
          after: t`The whole deposit goes back to them now, as for any return in good condition.`,
          confirm: t`Confirm Return`,
          cancel: t`Not Yet`,
          refund: early,
        }
      }
    />
  );
}

/** A policy's name inside a sentence ('by the flexible policy'). */
const POLICY_NAMES: Record<CancellationPolicy, MessageDescriptor> = {
  flexible: msg`flexible`,
  moderate: msg`moderate`,
  strict: msg`strict`,
};

/** On both people's card once it happened: the day, the end it had, and the rental refunded. */
export function EarlyReturnNote({ reservation: r, role }: { reservation: Reservation; role: string }) {
  const { t, i18n } = useLingui();
  const early = r.earlyReturn;
  if (!early) return null;
  const refunded = toCents(early.rentalRefund) ?? 0;
  const returnedOn = formatDayLabel(r.endDate);
  const bookedUntil = formatDayLabel(early.bookedEndDate);
  const amount = `$${early.rentalRefund}`;
  const policyName = POLICY_NAMES[r.cancellationPolicy];
  const policy = policyName ? i18n._(policyName) : r.cancellationPolicy;
  const refund =
    refunded <= 0
      ? t`No rental was refunded.`
      : role === 'borrower'
        ? t`${amount} of the rental refunded to you, by the ${policy} policy.`
        : t`${amount} of the rental refunded to the borrower, by the ${policy} policy.`;
  return (
    <p className="mt-4 flex gap-2 rounded-xl bg-teal-50 p-3 text-sm text-teal-950">
      <CalendarCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        <Trans>
          <span className="font-semibold">Returned early on {returnedOn}</span> (booked until {bookedUntil}).
        </Trans>{' '}
        {refund} <Trans>The days after it are free for others.</Trans>
      </span>
    </p>
  );
}
