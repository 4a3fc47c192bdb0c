import type { CancellationPolicy } from './cancellation-policy.ts';
import type { RentalPeriod } from './constants.ts';
import { formatDayLabel } from './format.ts';
import { centsToDecimal, startedPeriods } from './pricing.ts';

// Issue 18 item 3, decision 034: an early return ends the booking on the return day and gives back the
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

const PERIOD_WORDS: Record<RentalPeriod, [string, string]> = {
  day: ['day', 'days'],
  week: ['week', 'weeks'],
  month: ['month', 'months'],
};

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
  const ends = `${lender ? 'The booking' : 'Your booking'} ends today, ${formatDayLabel(refund.newEndDate)}, instead of ${formatDayLabel(booking.endDate)}, and the days after it are freed for others.`;
  const policy = `${lender ? 'your' : "the item's"} ${booking.cancellationPolicy} policy`;
  if (!booking.rentalPeriod || refund.unusedPeriods === 0) {
    return `${ends} No full rental period is left unused, so no rental is refunded.`;
  }
  const [one, many] = PERIOD_WORDS[booking.rentalPeriod];
  const periods = `${refund.unusedPeriods} unused ${refund.unusedPeriods === 1 ? one : many}`;
  if (refund.refundCents === 0) {
    return `${ends} By ${policy}, the rental of the ${periods} is not refunded.`;
  }
  const whom = lender ? `to ${lender.borrowerName}'s card` : 'to your card';
  return `${ends} By ${policy}, $${centsToDecimal(refund.refundCents)} of the rental (${refund.percent}% of the ${periods}) is refunded ${whom}.`;
}
