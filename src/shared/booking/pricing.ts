// Money arithmetic, in integer cents, shared by the web app and the server (ARCHITECTURE §4).

import { i18n, type MessageDescriptor } from '@lingui/core';
import { LIMITS } from '../constants.ts';
import { intlLocale } from '../format.ts';
import { writtenLater } from '../text.ts';
import { type ServiceFeeRates, serviceFeeCents } from './service-fee.ts';

/** "12.5" or "12.50" → 1250; empty, null or undefined → null. The schema has already checked the shape. */
export function toCents(amount: string | number | null | undefined): number | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const [whole = '0', fraction = ''] = String(amount).split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** 1250 → "12.50"; null stays null (spec §3: amounts are decimal strings in responses). */
export function centsToDecimal(cents: number | null | undefined): string | null {
  if (cents === null || cents === undefined) return null;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PERIOD_DAYS = { day: 1, week: 7, month: 30 } as const;

export type RentalPeriod = keyof typeof PERIOD_DAYS;

/** Days a booking counts: the rounded-up difference of the dates, at least 1. */
export function bookingDays(startDate: string, endDate: string): number {
  const diff = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / DAY_MS;
  return Math.max(1, Math.ceil(Number.isFinite(diff) ? diff : 1));
}

/** The periods a booking from start to end pays for: every started day, week (7) or month (30 days). */
export function startedPeriods(period: RentalPeriod, startDate: string, endDate: string): number {
  return Math.ceil(bookingDays(startDate, endDate) / PERIOD_DAYS[period]);
}

/**
 * What a booking holds on the borrower's card: the rental, its service fee and the deposit. The one
 * place they add up.
 */
export function heldCents(booking: {
  rentalCents: number;
  serviceFeeCents: number;
  depositCents: number;
}): number {
  return booking.rentalCents + booking.serviceFeeCents + booking.depositCents;
}

export interface Quote {
  days: number;
  rentalCents: number;
  /** The borrower's service fee on the rental (service-fee.ts); 0 on a free item. */
  serviceFeeCents: number;
  depositCents: number;
  totalCents: number;
}

/**
 * Spec §9: days = the rounded-up difference of the dates, at least 1; rental = price ×
 * number of started periods (day 1, week 7, month 30 days), a price without a period is flat;
 * the service fee on the rental at `rates` (decision 055); total = rental + fee + deposit. The Reserve
 * dialog shows it (with the rates the server gave it); the server recomputes it.
 */
export function quote(
  item: {
    rentalPriceCents: number | null;
    rentalPeriod: 'day' | 'week' | 'month' | null;
    depositCents: number | null;
  },
  startDate: string,
  endDate: string,
  rates: ServiceFeeRates,
): Quote {
  const days = bookingDays(startDate, endDate);
  const price = item.rentalPriceCents ?? 0;
  const periods = item.rentalPeriod ? startedPeriods(item.rentalPeriod, startDate, endDate) : 1;
  const rentalCents = price * periods;
  const depositCents = item.depositCents ?? 0;
  const fee = serviceFeeCents(rentalCents, rates);
  return {
    days,
    rentalCents,
    serviceFeeCents: fee,
    depositCents,
    totalCents: heldCents({ rentalCents, serviceFeeCents: fee, depositCents }),
  };
}

/**
 * A booking is at most LIMITS.bookingDaysMax days and LIMITS.bookingTotalCentsMax in all
 * (2,299 days at $10,000 a day overflowed the total). The Reserve dialog and the server say the same:
 * a descriptor, written in its reader's language (no macros in this module, text.ts).
 */
export function bookingLimitIssue(price: Quote): MessageDescriptor | null {
  if (price.days > LIMITS.bookingDaysMax) {
    return /*i18n*/ {
      id: 'pricing.too-many-days',
      message: 'A booking can be at most {days} days. Choose an earlier end date.',
      values: { days: LIMITS.bookingDaysMax },
    };
  }
  // Rental and deposit, as the lender priced them: the service fee on top is itself at most SERVICE_FEE_MAX.
  if (price.rentalCents + price.depositCents > LIMITS.bookingTotalCentsMax) {
    const most = writtenLater(() => (LIMITS.bookingTotalCentsMax / 100).toLocaleString(intlLocale()));
    return /*i18n*/ {
      id: 'pricing.too-much',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an ICU placeholder after the dollar sign.
      message: 'A booking can cost at most ${most}, rental and deposit together. Choose fewer days.',
      values: { most },
    };
  }
  return null;
}

/** The same in the active language (the page's). */
export function bookingLimitError(price: Quote): string | null {
  const issue = bookingLimitIssue(price);
  return issue && i18n._(issue);
}
