import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CalendarX } from 'lucide-react';
import { type CancellationPolicy, cancellationTerms } from '#shared/booking/cancellation-policy.ts';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { formatMoney, intlLocale } from '#shared/format.ts';

// The item's cancellation policy on its page, and in the Reserve dialog with the exact amounts for the
// chosen dates (src/shared/cancellation-policy.ts, the rule the server refunds by; decision 024), so the
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

/** What cancelling refunds for these dates, in one sentence per tier. */
export function termsText(
  policy: CancellationPolicy,
  booking: { startDate: string; rentalCents: number; depositCents: number },
): string {
  const terms = cancellationTerms(policy, booking, DEFAULT_CAMPUS_TIME_ZONE);
  const by = campusInstant(terms.deadline);
  const before = formatMoney(terms.before.refundCents);
  const after = formatMoney(terms.after.refundCents);
  return t`Cancel by ${by} and get ${before} back; after that, ${after}.`;
}

export function CancellationPolicyNote({
  policy,
  booking,
}: {
  policy: CancellationPolicy;
  /** The chosen dates' amounts: the note names exact refunds (a paid booking only). */
  booking?: { startDate: string; rentalCents: number; depositCents: number };
}) {
  const { i18n } = useLingui();
  const paid = booking && booking.rentalCents + booking.depositCents > 0;
  return (
    <div className="flex gap-3 text-sm text-stone-700">
      <CalendarX className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
      <p>
        <span className="font-semibold text-ink">{i18n._(POLICY_HEADINGS[policy])} </span>
        {paid ? termsText(policy, booking) : i18n._(POLICY_TEXT[policy])}
      </p>
    </div>
  );
}
