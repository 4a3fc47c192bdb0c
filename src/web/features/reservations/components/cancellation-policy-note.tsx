import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CalendarX } from 'lucide-react';
import { type CancellationPolicy, cancellationOutlook } from '#shared/booking/cancellation-policy.ts';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { formatMoney, intlLocale } from '#shared/format.ts';

// The item's cancellation policy on its page, and in the Reserve dialog with the exact amounts for the
// chosen dates (src/shared/booking/cancellation-policy.ts, the rule the server refunds by; decision 024), so the
// borrower knows what a cancellation would cost before reserving.

/** The note's heading per policy ('Flexible cancellation:'), one message each so it reads in any language. */
const POLICY_HEADINGS: Record<CancellationPolicy, MessageDescriptor> = {
  flexible: msg`Flexible cancellation:`,
  moderate: msg`Moderate cancellation:`,
  strict: msg`Strict cancellation:`,
};

/**
 * The policy in a sentence: src/shared's CANCELLATION_POLICY_TEXT as messages, so the note reads in the
 * active language (a test keeps the English the same as src/shared's).
 */
export const POLICY_TEXT: Record<CancellationPolicy, MessageDescriptor> = {
  flexible: msg`Full refund until 24 hours before the start; no rental refund after. The deposit always comes back.`,
  moderate: msg`Full refund until 3 days before the start; 50% of the rental after. The deposit always comes back.`,
  strict: msg`50% of the rental back until 7 days before the start; none after. The deposit always comes back.`,
};

/** Browsers put narrow spaces in times ('12:00 AM'); the screens write plain ones. */
const plainSpaces = (text: string) => text.replace(/[\u202f\u2009\u00a0]/g, ' ');

/** The deadline as campus time: 'Thu, Dec 3 at 12:00 AM' (the campus's clock, not the phone's). */
export function campusInstant(at: Date): string {
  const zone = { timeZone: DEFAULT_CAMPUS_TIME_ZONE };
  const date = plainSpaces(
    new Intl.DateTimeFormat(intlLocale(), {
      ...zone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
    }).format(at),
  );
  const time = plainSpaces(
    new Intl.DateTimeFormat(intlLocale(), { ...zone, hour: 'numeric', minute: '2-digit' }).format(at),
  );
  return t`${date} at ${time}`;
}

/**
 * What cancelling refunds for these dates, as of `now`: both tiers while the better one is ahead; once
 * its deadline has passed, what a cancellation now returns (never a deadline in the past).
 */
export function termsText(
  policy: CancellationPolicy,
  booking: { startDate: string; rentalCents: number; depositCents: number },
  now: Date = new Date(),
): string {
  const outlook = cancellationOutlook(policy, booking, now, DEFAULT_CAMPUS_TIME_ZONE);
  if (outlook.kind === 'open') {
    const by = campusInstant(outlook.deadline);
    const before = formatMoney(outlook.before.refundCents);
    const after = formatMoney(outlook.after.refundCents);
    return t`Cancel by ${by} and get ${before} back; after that, ${after}.`;
  }
  const refund = formatMoney(outlook.refund.refundCents);
  if (outlook.kind === 'same') return t`Cancel before pickup and get ${refund} back.`;
  if (outlook.refund.refundCents === 0) return t`Non-refundable if you cancel now.`;
  if (outlook.refund.rentalRefundCents === 0) {
    return t`If you cancel now, only the ${refund} deposit comes back.`;
  }
  return t`If you cancel now, you get ${refund} back.`;
}

export function CancellationPolicyNote({
  policy,
  booking,
  now,
}: {
  policy: CancellationPolicy;
  /** The chosen dates' amounts: the note names exact refunds (a paid booking only). */
  booking?: { startDate: string; rentalCents: number; depositCents: number };
  /** The moment the refunds are told for (tests fix it). */
  now?: Date;
}) {
  const { i18n } = useLingui();
  const paid = booking && booking.rentalCents + booking.depositCents > 0;
  return (
    <div className="flex gap-3 text-sm text-stone-700">
      <CalendarX className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
      <p>
        <span className="font-semibold text-ink">{i18n._(POLICY_HEADINGS[policy])} </span>
        {paid ? termsText(policy, booking, now) : i18n._(POLICY_TEXT[policy])}
      </p>
    </div>
  );
}
