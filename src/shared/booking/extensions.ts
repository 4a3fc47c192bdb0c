import { i18n, type MessageDescriptor } from '@lingui/core';
import { dayLabel } from '../text.ts';
import { type AvailabilityWindow, addDays, inWindow } from './availability.ts';
import { bookingLimitIssue, quote } from './pricing.ts';
import { NO_PLATFORM_SHARE } from './service-fee.ts';

// Decision 031: a borrower asks for more days on a booking. One home for what an
// extension may be and what it costs, read by the server (which refuses by it) and the card's dialog.

/** An extension request's statuses: their table lives with the reservation's (booking/statuses.ts). */
export { EXTENSION_STATUSES, type ExtensionStatus } from './statuses.ts';

/** Bookings that may be extended: approved (not picked up yet) or active (with the borrower). */
export const EXTENDABLE_STATUSES = ['approved', 'active'] as const;

export interface PricedItem {
  rentalPriceCents: number | null;
  rentalPeriod: 'day' | 'week' | 'month' | null;
  depositCents: number | null;
}

/**
 * The extra rental for moving the end date: what the whole booking costs to the new end minus what it
 * cost to the old one, at the item's price (started periods: a week booked for 5 days that grows to 7
 * costs nothing more). Never below zero. The deposit is already held by the booking.
 */
export function extensionRentalCents(
  item: PricedItem,
  booking: { startDate: string; endDate: string },
  newEndDate: string,
): number {
  const before = quote(item, booking.startDate, booking.endDate, NO_PLATFORM_SHARE).rentalCents;
  const after = quote(item, booking.startDate, newEndDate, NO_PLATFORM_SHARE).rentalCents;
  return Math.max(0, after - before);
}

/**
 * Why the item's window or the booking limits refuse this new end date (null when they do not): it must
 * come after the current end date, not in the past, inside the lender's window and on one of its
 * weekdays, and the whole booking within LIMITS (90 days, $20,000). A descriptor, written in its
 * reader's language (no macros in this module, text.ts).
 */
export function extensionIssue(
  booking: { startDate: string; endDate: string },
  newEndDate: string,
  item: AvailabilityWindow & PricedItem,
  today: string,
): MessageDescriptor | null {
  if (newEndDate <= booking.endDate) {
    return /*i18n*/ {
      id: 'extensions.after-end',
      message: 'The new end date must be after the current one, {day}.',
      values: { day: dayLabel(booking.endDate) },
    };
  }
  if (booking.endDate < today) {
    return /*i18n*/ {
      id: 'extensions.ended',
      message: 'This booking has already ended: return the item, then book it again.',
    };
  }
  if (item.availableUntil && newEndDate > item.availableUntil) {
    return /*i18n*/ {
      id: 'availability.until',
      message: 'This item is available until {day}.',
      values: { day: dayLabel(item.availableUntil) },
    };
  }
  if (!inWindow(newEndDate, item)) {
    return /*i18n*/ {
      id: 'extensions.return-day',
      message: 'The return must fall on a day the lender is available.',
    };
  }
  return bookingLimitIssue(quote(item, booking.startDate, newEndDate, NO_PLATFORM_SHARE));
}

/** The same in the active language (the page's). */
export function extensionProblem(
  booking: { startDate: string; endDate: string },
  newEndDate: string,
  item: AvailabilityWindow & PricedItem,
  today: string,
): string | null {
  const issue = extensionIssue(booking, newEndDate, item, today);
  return issue && i18n._(issue);
}

/** The extra days an extension adds: from the day after the current end to the new end. */
export function extraDays(booking: { endDate: string }, newEndDate: string) {
  return { startDate: addDays(booking.endDate, 1), endDate: newEndDate };
}
