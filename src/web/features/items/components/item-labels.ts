import { format, parseISO } from 'date-fns';
import type { Condition, PickupMethod, RentalPeriod } from '#shared/constants.ts';
import { formatPrice } from '#shared/format.ts';

// How the item screens word an item's fields (spec §2 Item detail, §9).

export const CONDITION_LABELS: Record<Condition, string> = {
  new: 'New',
  'like-new': 'Like New',
  good: 'Good',
  fair: 'Fair',
  worn: 'Worn',
};

export const PICKUP_LABELS: Record<PickupMethod, string> = {
  meetup: 'Campus Meetup',
  locker: 'Smart Locker',
};

export const RENTAL_PERIOD_LABELS: Record<RentalPeriod, string> = {
  day: 'Per day',
  week: 'Per week',
  month: 'Per month',
};

/** Day numbers 0 (Sunday) to 6 (Saturday), spec §9. */
export const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export const DAY_LONG = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** A positive amount, else 0 (null, '', '0.00' and junk all count as none). */
export function amountOf(value: string | null | undefined): number {
  const n = Number.parseFloat(value ?? '');
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** '$5.00 / day', '$5.00', or 'FREE'. */
export function formatRentalPrice(price: string | null, period: RentalPeriod | null): string {
  const label = formatPrice(price);
  return label !== 'FREE' && period ? `${label} / ${period}` : label;
}

/** A date-only value ('2026-11-22') read as that calendar day here, or a timestamp. */
export function parseDate(value: string): Date {
  return parseISO(value);
}

export function formatDate(value: string, pattern = 'MMM d, yyyy'): string {
  const date = parseDate(value);
  return Number.isNaN(date.getTime()) ? value : format(date, pattern);
}

/** 'Every day' or the chosen days in week order ('Mon, Wed, Fri'). */
export function formatDays(days: readonly number[]): string {
  const unique = [...new Set(days)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  if (unique.length === 7) return 'Every day';
  if (unique.length === 0) return 'No days set';
  return unique.map((d) => DAY_SHORT[d]).join(', ');
}

/** Spec §2 Item card: images missing, empty, 'null' or 'undefined' do not count. */
export function usableImages(images: readonly string[] | null | undefined): string[] {
  return (images ?? []).filter((src) => typeof src === 'string' && !/^(null|undefined)?$/.test(src.trim()));
}
