import { type AvailabilityWindow, addDays, inWindow } from './availability.ts';
import { formatDayLabel } from './format.ts';
import { bookingLimitError, quote } from './pricing.ts';

// Issue 18 item 3, decision 031: a borrower asks for more days on a booking. One home for what an
// extension may be and what it costs, read by the server (which refuses by it) and the card's dialog.

/** An extension request moves through these; only a pending one holds money and can be answered. */
export const EXTENSION_STATUSES = ['pending', 'approved', 'declined', 'cancelled', 'expired'] as const;
export type ExtensionStatus = (typeof EXTENSION_STATUSES)[number];

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
  const before = quote(item, booking.startDate, booking.endDate).rentalCents;
  const after = quote(item, booking.startDate, newEndDate).rentalCents;
  return Math.max(0, after - before);
}

/**
 * Why the item's window or the booking limits refuse this new end date (null when they do not): it must
 * come after the current end date, not in the past, inside the lender's window and on one of its
 * weekdays, and the whole booking within LIMITS (90 days, $20,000).
 */
export function extensionProblem(
  booking: { startDate: string; endDate: string },
  newEndDate: string,
  item: AvailabilityWindow & PricedItem,
  today: string,
): string | null {
  if (newEndDate <= booking.endDate) {
    return `The new end date must be after the current one, ${formatDayLabel(booking.endDate)}.`;
  }
  if (booking.endDate < today) {
    return 'This booking has already ended: return the item, then book it again.';
  }
  if (item.availableUntil && newEndDate > item.availableUntil) {
    return `This item is available until ${formatDayLabel(item.availableUntil)}.`;
  }
  if (!inWindow(newEndDate, item)) return 'The return must fall on a day the lender is available.';
  const limit = bookingLimitError(quote(item, booking.startDate, newEndDate));
  return limit;
}

/** The extra days an extension adds: from the day after the current end to the new end. */
export function extraDays(booking: { endDate: string }, newEndDate: string) {
  return { startDate: addDays(booking.endDate, 1), endDate: newEndDate };
}
