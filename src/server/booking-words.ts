import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { eq } from 'drizzle-orm';
import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import { formatDayLabel, intlLocale } from '#shared/format.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import type { Db } from './db/client.ts';
import { users } from './db/schema/users.ts';
import { inLocale, type NoticeText } from './i18n.ts';
import { only, wording } from './wordings.ts';

// What the booking features (reservations, extensions, payment steps) write for people, in the reader's language. A notification is
// written by notificationService.notify in its recipient's; an error by the error handler in the
// caller's; text stored for one person (a billing row's description, a decline reason) here, in theirs.

/** The language a person reads CampusLoop in. */
async function localeOf(db: Db, userId: string): Promise<Locale> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1);
  return isLocale(row?.locale) ? row.locale : DEFAULT_LOCALE;
}

/**
 * Text stored for one person (a billing row, a reservation's decline reason), written in their language.
 * `text` is called in that language, so a day or an amount formatted inside it is written in it too.
 */
export async function writtenFor(
  db: Db,
  userId: string,
  text: () => MessageDescriptor,
  /** Their language when the caller knows it already (the signed-in person's own): no read then. */
  known?: Locale,
): Promise<string> {
  const locale = known ?? (await localeOf(db, userId));
  return inLocale(locale, () => i18n._(text()));
}

/**
 * A calendar day in an error's message: formatted when the message is written (the error handler
 * writes it in the caller's language), not when the error is thrown (in English). Lingui writes a
 * placeholder's value with `+`, so this value's toString runs then; typed as the string it becomes.
 */
export function dayWhenWritten(date: string): string {
  return { toString: () => formatDayLabel(date) } as unknown as string;
}

/** An instant as the campus reads it, "Thu, Nov 26, 6:00 PM", in the active language (call inside the text). */
export function campusMomentWritten(at: Date, timeZone: string): string {
  return at.toLocaleString(intlLocale(), {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** A cancellation policy's name inside a sentence ("By the item's strict policy"). */
export const POLICY_NAMES: Record<CancellationPolicy, MessageDescriptor> = {
  flexible: msg({ message: 'flexible', context: 'cancellation policy, in a sentence' }),
  moderate: msg({ message: 'moderate', context: 'cancellation policy, in a sentence' }),
  strict: msg({ message: 'strict', context: 'cancellation policy, in a sentence' }),
};

/** The policy's name in the active language; unknown (older) values as they are stored. */
export function policyName(policy: string): string {
  const name = POLICY_NAMES[policy as CancellationPolicy];
  return name ? i18n._(name) : policy;
}

/** A booking's first and last days, in the active language (called inside a notice's text). */
export const daysOf = (r: { startDate: string; endDate: string }) => ({
  start: formatDayLabel(r.startDate),
  end: formatDayLabel(r.endDate),
});

/** The decline reason of a request that lost its dates to another booking (in its borrower's language). */
export const BOOKED_FOR_OVERLAPPING_DATES: MessageDescriptor = msg`The item was booked for overlapping dates.`;

/** The notice of a request that lost its dates to another booking (a reservation's or an extension's approval). */
export const overlapDeclinedText = wording(
  'bookings.overlapDeclinedText',
  (
    item: string,
    request: { startDate: string; endDate: string; stripePaymentIntentId: string | null },
  ): NoticeText => {
    const { start, end } = daysOf(request);
    return {
      title: msg`Reservation declined`,
      message: request.stripePaymentIntentId
        ? msg`Your request for ${item} (${start} to ${end}) was declined: the item was booked for overlapping dates. Your payment was released.`
        : msg`Your request for ${item} (${start} to ${end}) was declined: the item was booked for overlapping dates.`,
    };
  },
  (item, request) => [item, only(request, 'startDate', 'endDate', 'stripePaymentIntentId')],
);
