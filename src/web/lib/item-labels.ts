import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { format, parseISO } from 'date-fns';
import type { Condition, PickupMethod, RentalPeriod, ReservationStatus } from '#shared/constants.ts';
import { formatPrice } from '#shared/format.ts';
import { CATEGORY_MESSAGES, categoryLabel } from './category-labels.ts';
import { dateFnsLocale } from './i18n.ts';

export { CATEGORY_MESSAGES, categoryLabel };

// How the item screens word an item's fields (spec §2 Item detail, §9), in the language the app speaks:
// the tables hold message descriptors, and the functions and *_LABELS read them through the
// app's one Lingui instance each time they are used, so Browse, Home and every card follow the switch.

/** A table of descriptors read as text in the active language whenever one of its keys is read. */
function labelTable<K extends string>(messages: Record<K, MessageDescriptor>): Readonly<Record<K, string>> {
  const table = {} as Record<K, string>;
  for (const key of Object.keys(messages) as K[]) {
    Object.defineProperty(table, key, { enumerable: true, get: () => i18n._(messages[key]) });
  }
  return Object.freeze(table);
}

// 'Good' and 'Fair' also name ratings; the context keeps the two apart for the translator.
export const CONDITION_MESSAGES: Record<Condition, MessageDescriptor> = {
  new: msg({ message: 'New', context: 'item condition' }),
  'like-new': msg({ message: 'Like New', context: 'item condition' }),
  good: msg({ message: 'Good', context: 'item condition' }),
  fair: msg({ message: 'Fair', context: 'item condition' }),
  worn: msg({ message: 'Worn', context: 'item condition' }),
};

export const PICKUP_MESSAGES: Record<PickupMethod, MessageDescriptor> = {
  meetup: msg`Campus Meetup`,
  locker: msg`Smart Locker`,
};

export const RENTAL_PERIOD_MESSAGES: Record<RentalPeriod, MessageDescriptor> = {
  day: msg`Per day`,
  week: msg`Per week`,
  month: msg`Per month`,
};

/** A reservation's status as the profile's Borrowed tab names it (its status word, capitalised). */
export const RESERVATION_STATUS_MESSAGES: Record<ReservationStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  approved: msg`Approved`,
  active: msg`Active`,
  returned: msg`Returned`,
  claimed: msg`Claimed`,
  disputed: msg`Disputed`,
  completed: msg`Completed`,
  cancelled: msg`Cancelled`,
  declined: msg`Declined`,
};

/** 'Tools', 'Herramientas': a category's name in the active language. */
export const conditionLabel = (condition: Condition): string => i18n._(CONDITION_MESSAGES[condition]);
export const pickupLabel = (method: PickupMethod): string => i18n._(PICKUP_MESSAGES[method]);
export const rentalPeriodLabel = (period: RentalPeriod): string => i18n._(RENTAL_PERIOD_MESSAGES[period]);
/** A reservation status in words; one we do not know is shown as it came. */
export function reservationStatusLabel(status: string): string {
  const message = RESERVATION_STATUS_MESSAGES[status as ReservationStatus];
  return message ? i18n._(message) : status;
}

/** The same labels as tables (`CONDITION_LABELS[c]`), for callers written before the app spoke two languages. */
export const CATEGORY_LABELS = labelTable(CATEGORY_MESSAGES);
export const CONDITION_LABELS = labelTable(CONDITION_MESSAGES);
export const PICKUP_LABELS = labelTable(PICKUP_MESSAGES);
export const RENTAL_PERIOD_LABELS = labelTable(RENTAL_PERIOD_MESSAGES);

/** Day numbers 0 (Sunday) to 6 (Saturday), spec §9. */
const DAY_SHORT_MESSAGES: readonly MessageDescriptor[] = [
  msg`Sun`,
  msg`Mon`,
  msg`Tue`,
  msg`Wed`,
  msg`Thu`,
  msg`Fri`,
  msg`Sat`,
];
const DAY_LONG_MESSAGES: readonly MessageDescriptor[] = [
  msg`Sunday`,
  msg`Monday`,
  msg`Tuesday`,
  msg`Wednesday`,
  msg`Thursday`,
  msg`Friday`,
  msg`Saturday`,
];

/** The days of the week, Sunday first (index = day number). */
export const DAYS = [0, 1, 2, 3, 4, 5, 6] as const;
const dayName = (messages: readonly MessageDescriptor[], day: number): string => {
  const message = messages[day];
  return message ? i18n._(message) : String(day);
};
/** 'Mon' ('lun'). */
export const dayShort = (day: number): string => dayName(DAY_SHORT_MESSAGES, day);
/** 'Monday' ('lunes'). */
export const dayLong = (day: number): string => dayName(DAY_LONG_MESSAGES, day);

/** A positive amount, else 0 (null, '', '0.00' and junk all count as none). */
export function amountOf(value: string | null | undefined): number {
  const n = Number.parseFloat(value ?? '');
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** '$5.00 / day', '$5.00', or 'FREE' ('$5.00 / día', 'GRATIS'). */
export function formatRentalPrice(price: string | null, period: RentalPeriod | null): string {
  const label = formatPrice(price);
  const n = Number.parseFloat(price ?? '');
  // FREE has no period (formatPrice's rule: no number, or zero).
  if (!n || Number.isNaN(n) || !period) return label;
  switch (period) {
    case 'day':
      return t`${label} / day`;
    case 'week':
      return t`${label} / week`;
    case 'month':
      return t`${label} / month`;
    default:
      return `${label} / ${period}`;
  }
}

/** A date-only value ('2026-11-22') read as that calendar day here, or a timestamp. */
export function parseDate(value: string): Date {
  return parseISO(value);
}

/**
 * The patterns the screens write dates with, as Spanish orders them ('Nov 22, 2026' → '22 nov 2026').
 * A pattern not listed is used as it is, with Spanish month and day names.
 */
const SPANISH_PATTERNS: Record<string, string> = {
  'MMM d, yyyy': 'd MMM yyyy',
  'MMM d': 'd MMM',
  'MMMM yyyy': "MMMM 'de' yyyy",
  'EEE, MMM d': 'EEE, d MMM',
  "MMM d 'at' h:mm a": 'd MMM, H:mm',
};

/** 'Nov 22, 2026' ('22 nov 2026' in Spanish); the value as it came when it is no date. */
export function formatDate(value: string, pattern = 'MMM d, yyyy'): string {
  const date = parseDate(value);
  if (Number.isNaN(date.getTime())) return value;
  const spanish = i18n.locale === 'es' ? dateFnsLocale() : undefined;
  if (spanish) return format(date, SPANISH_PATTERNS[pattern] ?? pattern, { locale: spanish });
  return format(date, pattern);
}

/** 'Every day' or the chosen days in week order ('Mon, Wed, Fri'). */
export function formatDays(days: readonly number[]): string {
  const unique = [...new Set(days)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  if (unique.length === 7) return t`Every day`;
  if (unique.length === 0) return t`No days set`;
  return unique.map(dayShort).join(', ');
}

/** Spec §2 Item card: images missing, empty, 'null' or 'undefined' do not count. */
export function usableImages(images: readonly string[] | null | undefined): string[] {
  return (images ?? []).filter((src) => typeof src === 'string' && !/^(null|undefined)?$/.test(src.trim()));
}
