import { CalendarX } from 'lucide-react';
import {
  CANCELLATION_POLICY_LABELS,
  CANCELLATION_POLICY_TEXT,
  type CancellationPolicy,
  cancellationTerms,
} from '#shared/cancellation-policy.ts';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { formatMoney } from '#shared/format.ts';

// Issue 17 item 3: the item's cancellation policy on its page, and in the Reserve dialog with the exact
// amounts for the chosen dates (src/shared/cancellation-policy.ts, the rule the server refunds by).

/** The deadline as campus time: 'Thu, Dec 3 at 12:00 AM' (the campus's clock, not the phone's). */
export function campusInstant(at: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: DEFAULT_CAMPUS_TIME_ZONE,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })
    .format(at)
    .replace(/, (\d+:\d\d)/, ' at $1');
}

/** What cancelling refunds for these dates, in one sentence per tier. */
export function termsText(
  policy: CancellationPolicy,
  booking: { startDate: string; rentalCents: number; depositCents: number },
): string {
  const terms = cancellationTerms(policy, booking, DEFAULT_CAMPUS_TIME_ZONE);
  const by = campusInstant(terms.deadline);
  return `Cancel by ${by} and get ${formatMoney(terms.before.refundCents)} back; after that, ${formatMoney(terms.after.refundCents)}.`;
}

export function CancellationPolicyNote({
  policy,
  booking,
}: {
  policy: CancellationPolicy;
  /** The chosen dates' amounts: the note names exact refunds (a paid booking only). */
  booking?: { startDate: string; rentalCents: number; depositCents: number };
}) {
  const paid = booking && booking.rentalCents + booking.depositCents > 0;
  return (
    <div className="flex gap-3 text-sm text-stone-700">
      <CalendarX className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
      <p>
        <span className="font-semibold text-ink">{CANCELLATION_POLICY_LABELS[policy]} cancellation: </span>
        {paid ? termsText(policy, booking) : CANCELLATION_POLICY_TEXT[policy]}
      </p>
    </div>
  );
}
