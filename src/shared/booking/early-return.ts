import { plural, select, t } from '@lingui/core/macro';
import type { RentalPeriod } from '../constants.ts';
import { formatDayLabel } from '../format.ts';
import type { CancellationPolicy } from './cancellation-policy.ts';
import { centsToDecimal, startedPeriods } from './pricing.ts';

// Decision 034: an early return ends the booking on the return day and gives back the
// rental of the full periods it no longer uses, by the item's policy. One rule for the server (what it
// refunds, per payment) and the "Item Returned" dialog (what it will refund), so the two never differ.

/** Of the rental of unused periods, the share that comes back, per cancellation policy. */
export const EARLY_RETURN_REFUND_PERCENT: Record<CancellationPolicy, number> = {
  flexible: 100,
  moderate: 50,
  strict: 0,
};

/**
 * One payment of the booking's rental: the booking's own (from its start, `fromEndDate` null) or an
 * approved extension's (the days after `fromEndDate`, the end it moved). Their order does not matter.
 */
export interface RentalPayment {
  fromEndDate: string | null;
  endDate: string;
  rentalCents: number;
}

export interface EarlyReturnBooking {
  startDate: string;
  /** The current last day (after approved extensions). */
  endDate: string;
  /** The rental period the booking was priced by (copied from the item at request); null: flat price. */
  rentalPeriod: RentalPeriod | null;
  cancellationPolicy: CancellationPolicy;
  payments: readonly RentalPayment[];
}

export interface EarlyReturnRefund {
  /** The booking's last day from now on: the return day (never before the start day). */
  newEndDate: string;
  /** Full periods after the return day, as pricing counts them. */
  unusedPeriods: number;
  /** Their rental, of every payment together. */
  unusedRentalCents: number;
  percent: number;
  /** What comes back, rounded in the borrower's favour per payment; `refunds[i]` is of `payments[i]`. */
  refundCents: number;
  refunds: number[];
}

/**
 * What returning on `returnDay` (a campus calendar day) does to the booking; null when it is not early
 * (on or after the last day, or a one-day booking back before its day: its end stays). Pricing charges
 * every started period from the start, so the periods a return still uses are those of a booking from
 * the start to the return day; the rest are unused. Each payment gives back the unused periods it paid
 * for, at its own price per period.
 */
export function earlyReturnRefund(booking: EarlyReturnBooking, returnDay: string): EarlyReturnRefund | null {
  const newEndDate = returnDay < booking.startDate ? booking.startDate : returnDay;
  // A one-day booking back before its day (picked up early) ends on its day all the same.
  if (newEndDate >= booking.endDate) return null;
  const percent = EARLY_RETURN_REFUND_PERCENT[booking.cancellationPolicy];
  const period = booking.rentalPeriod;
  if (!period) {
    // A flat price is not counted in periods: nothing of it is unused.
    const refunds = booking.payments.map(() => 0);
    return { newEndDate, unusedPeriods: 0, unusedRentalCents: 0, percent, refundCents: 0, refunds };
  }
  const periodsTo = (day: string) => startedPeriods(period, booking.startDate, day);
  const used = periodsTo(newEndDate);
  let unusedRentalCents = 0;
  const refunds = booking.payments.map((payment) => {
    const from = payment.fromEndDate === null ? 0 : periodsTo(payment.fromEndDate);
    const to = periodsTo(payment.endDate);
    const unused = Math.max(0, to - Math.max(from, used));
    if (unused === 0 || to <= from) return 0;
    const rental = Math.floor((payment.rentalCents * unused) / (to - from));
    unusedRentalCents += rental;
    return Math.ceil((rental * percent) / 100);
  });
  return {
    newEndDate,
    unusedPeriods: Math.max(0, periodsTo(booking.endDate) - used),
    unusedRentalCents,
    percent,
    refundCents: refunds.reduce((sum, cents) => sum + cents, 0),
    refunds,
  };
}

/**
 * What an early return today does, in the words of the one about to press the button: the borrower's
 * "Item Returned" (the default), or the lender's "Returned in good condition" of a borrow still out,
 * which gives the borrower's unused rental back from what the lender would have earned.
 */
export function earlyReturnSentence(
  booking: EarlyReturnBooking,
  refund: EarlyReturnRefund,
  lender: { borrowerName: string } | null = null,
): string {
  // Written in the active language, each sentence whole (the policy's name and the unused
  // periods chosen inside the message, so a translation can place and inflect them).
  const today = formatDayLabel(refund.newEndDate);
  const end = formatDayLabel(booking.endDate);
  const ends = lender
    ? t`The booking ends today, ${today}, instead of ${end}, and the days after it are freed for others.`
    : t`Your booking ends today, ${today}, instead of ${end}, and the days after it are freed for others.`;
  const period: RentalPeriod | null = booking.rentalPeriod;
  if (!period || refund.unusedPeriods === 0) {
    return `${ends} ${t`No full rental period is left unused, so no rental is refunded.`}`;
  }
  const policy = booking.cancellationPolicy;
  const count = refund.unusedPeriods;
  if (refund.refundCents === 0) {
    const kept = lender
      ? t`By your ${select(policy, { flexible: 'flexible', moderate: 'moderate', other: 'strict' })} policy, the rental of the ${select(
          period,
          {
            day: plural(count, { one: '# unused day', other: '# unused days' }),
            week: plural(count, { one: '# unused week', other: '# unused weeks' }),
            other: plural(count, { one: '# unused month', other: '# unused months' }),
          },
        )} is not refunded.`
      : t`By the item's ${select(policy, { flexible: 'flexible', moderate: 'moderate', other: 'strict' })} policy, the rental of the ${select(
          period,
          {
            day: plural(count, { one: '# unused day', other: '# unused days' }),
            week: plural(count, { one: '# unused week', other: '# unused weeks' }),
            other: plural(count, { one: '# unused month', other: '# unused months' }),
          },
        )} is not refunded.`;
    return `${ends} ${kept}`;
  }
  const amount = centsToDecimal(refund.refundCents) ?? '0.00';
  const percent = refund.percent;
  const borrowerName = lender?.borrowerName ?? '';
  const refunded = lender
    ? t`By your ${select(policy, { flexible: 'flexible', moderate: 'moderate', other: 'strict' })} policy, $${amount} of the rental (${percent}% of the ${select(
        period,
        {
          day: plural(count, { one: '# unused day', other: '# unused days' }),
          week: plural(count, { one: '# unused week', other: '# unused weeks' }),
          other: plural(count, { one: '# unused month', other: '# unused months' }),
        },
      )}) is refunded to ${borrowerName}'s card.`
    : t`By the item's ${select(policy, { flexible: 'flexible', moderate: 'moderate', other: 'strict' })} policy, $${amount} of the rental (${percent}% of the ${select(
        period,
        {
          day: plural(count, { one: '# unused day', other: '# unused days' }),
          week: plural(count, { one: '# unused week', other: '# unused weeks' }),
          other: plural(count, { one: '# unused month', other: '# unused months' }),
        },
      )}) is refunded to your card.`;
  return `${ends} ${refunded}`;
}
