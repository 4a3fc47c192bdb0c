import { campusMidnight } from '../calendar.ts';
import { textTable } from '../text.ts';

// Each item's cancellation policy, chosen when listing. One rule for the server (what
// a borrower's cancellation refunds), the item page and the Reserve dialog (the exact amounts for the
// chosen dates). Decision 024.
//
// "The start" is the start day's midnight on campus (CAMPUS_TIME_ZONE), so "24 h before" is the same
// instant for everyone, whatever their phone's zone. A cancellation AT a deadline is still in time.
// The deposit always comes back in full; only the rental is kept in part or whole.

export const CANCELLATION_POLICIES = ['flexible', 'moderate', 'strict'] as const;
export type CancellationPolicy = (typeof CANCELLATION_POLICIES)[number];
/** Items listed before policies existed behaved like this: the whole payment back before pickup. */
export const DEFAULT_CANCELLATION_POLICY: CancellationPolicy = 'flexible';

const HOUR = 3600_000;

/** Per policy: until `hoursBefore` the start, this percentage of the rental comes back; after, `after`. */
const RULES: Record<CancellationPolicy, { hoursBefore: number; before: number; after: number }> = {
  flexible: { hoursBefore: 24, before: 100, after: 0 },
  moderate: { hoursBefore: 72, before: 100, after: 50 },
  strict: { hoursBefore: 7 * 24, before: 50, after: 0 },
};

// Written in the active language when read (decision 035; text.ts: no macros in this module).
export const CANCELLATION_POLICY_LABELS: Readonly<Record<CancellationPolicy, string>> = textTable({
  flexible: /*i18n*/ { id: 'cancellation-policy.flexible', message: 'Flexible' },
  moderate: /*i18n*/ { id: 'cancellation-policy.moderate', message: 'Moderate' },
  strict: /*i18n*/ { id: 'cancellation-policy.strict', message: 'Strict' },
});

/** The policy in a sentence, as the listing form, the item page and the dialog say it. */
export const CANCELLATION_POLICY_TEXT: Readonly<Record<CancellationPolicy, string>> = textTable({
  flexible: /*i18n*/ {
    id: 'cancellation-policy.flexible.text',
    message:
      'Full refund until 24 hours before the start; no rental refund after. The deposit always comes back.',
  },
  moderate: /*i18n*/ {
    id: 'cancellation-policy.moderate.text',
    message:
      'Full refund until 3 days before the start; 50% of the rental after. The deposit always comes back.',
  },
  strict: /*i18n*/ {
    id: 'cancellation-policy.strict.text',
    message:
      '50% of the rental back until 7 days before the start; none after. The deposit always comes back.',
  },
});

/** The instant after which a borrower's cancellation refunds less. */
export function cancellationDeadline(policy: CancellationPolicy, startDate: string, timeZone: string): Date {
  return new Date(campusMidnight(startDate, timeZone).getTime() - RULES[policy].hoursBefore * HOUR);
}

export interface CancellationRefund {
  /** Of the rental, what comes back (rounded in the borrower's favour) and what the lender keeps. */
  rentalRefundCents: number;
  rentalKeptCents: number;
  depositRefundCents: number;
  refundCents: number;
  /** The percentage of the rental refunded. */
  percent: number;
}

/** What a borrower's cancellation at `at` gives back of an approved (paid) booking. */
export function borrowerCancellationRefund(
  policy: CancellationPolicy,
  booking: { startDate: string; rentalCents: number; depositCents: number },
  at: Date,
  timeZone: string,
): CancellationRefund {
  const rule = RULES[policy];
  const inTime = at.getTime() <= cancellationDeadline(policy, booking.startDate, timeZone).getTime();
  const percent = inTime ? rule.before : rule.after;
  const rentalRefundCents = Math.ceil((booking.rentalCents * percent) / 100);
  return {
    rentalRefundCents,
    rentalKeptCents: booking.rentalCents - rentalRefundCents,
    depositRefundCents: booking.depositCents,
    refundCents: rentalRefundCents + booking.depositCents,
    percent,
  };
}

/** Both tiers for a booking: what the item page and the Reserve dialog show for the chosen dates. */
export function cancellationTerms(
  policy: CancellationPolicy,
  booking: { startDate: string; rentalCents: number; depositCents: number },
  timeZone: string,
): { deadline: Date; before: CancellationRefund; after: CancellationRefund } {
  const deadline = cancellationDeadline(policy, booking.startDate, timeZone);
  return {
    deadline,
    before: borrowerCancellationRefund(policy, booking, deadline, timeZone),
    after: borrowerCancellationRefund(policy, booking, new Date(deadline.getTime() + 1), timeZone),
  };
}

/**
 * What the Reserve dialog may promise at `now` for these dates. While the better tier is still ahead,
 * its deadline and both amounts ('open'); once the deadline has passed, only what a cancellation now
 * returns ('closed'), because a deadline in the past is no promise at all; and one amount when both
 * tiers give the same ('same': no rental to keep). A cancellation AT the deadline is still in time.
 */
export type CancellationOutlook =
  | { kind: 'open'; deadline: Date; before: CancellationRefund; after: CancellationRefund }
  | { kind: 'closed'; refund: CancellationRefund }
  | { kind: 'same'; refund: CancellationRefund };

export function cancellationOutlook(
  policy: CancellationPolicy,
  booking: { startDate: string; rentalCents: number; depositCents: number },
  now: Date,
  timeZone: string,
): CancellationOutlook {
  const terms = cancellationTerms(policy, booking, timeZone);
  if (terms.before.refundCents === terms.after.refundCents) return { kind: 'same', refund: terms.before };
  if (now.getTime() > terms.deadline.getTime()) return { kind: 'closed', refund: terms.after };
  return { kind: 'open', ...terms };
}
