import { i18n, type MessageDescriptor } from '@lingui/core';
import { dayLabel } from '../text.ts';

// When an item can be borrowed: the one home of the rule. The server's booking check,
// the Reserve dialog's calendar and the SQL of the "available now" filter and the booked days all read
// it; tests/api/availability-rules.test.ts holds the SQL (and the database's exclusion constraint) to it.
// Days are calendar days 'YYYY-MM-DD' in the campus time zone throughout, so no time zone shifts a date.

/** Reservations whose days are taken (one list, with the booking's other statuses). */
export { BOOKED_STATUSES } from './statuses.ts';

/** The lender's window: from, until (open-ended when null), and the weekdays (0 = Sunday) of handovers. */
export interface AvailabilityWindow {
  availableFrom: string;
  availableUntil: string | null;
  availableDays: readonly number[];
}

export interface DayRange {
  startDate: string;
  endDate: string;
}

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

export function addDays(day: string, n: number): string {
  const d = noon(day);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** 0 = Sunday, as the items' available_days store it. */
export function weekdayOf(day: string): number {
  return noon(day).getUTCDay();
}

/** Two inclusive day ranges share at least one day. */
export function overlaps(a: DayRange, b: DayRange): boolean {
  return a.startDate <= b.endDate && a.endDate >= b.startDate;
}

/** A day the lender offers for a handover: inside the window and on one of its weekdays. */
export function inWindow(day: string, w: AvailabilityWindow): boolean {
  return (
    day >= w.availableFrom &&
    (!w.availableUntil || day <= w.availableUntil) &&
    w.availableDays.includes(weekdayOf(day))
  );
}

/**
 * Why the item's own window refuses these dates (null when it does not): start not before today, end
 * not before start, both inside the window and on its weekdays. Overlaps with other bookings are the
 * database's to answer (its lock and exclusion constraint). The message is a descriptor, written in its
 * reader's language (the server's error handler writes it in the caller's; no macros here, text.ts).
 */
export function rangeIssue(
  range: DayRange,
  w: AvailabilityWindow,
  today: string,
): { path: 'startDate' | 'endDate'; message: MessageDescriptor } | null {
  const { startDate, endDate } = range;
  if (startDate < today) {
    return {
      path: 'startDate',
      message: /*i18n*/ { id: 'availability.start-past', message: 'The start date cannot be in the past.' },
    };
  }
  if (endDate < startDate) {
    return {
      path: 'endDate',
      message: /*i18n*/ {
        id: 'availability.end-before-start',
        message: 'The end date cannot be before the start date.',
      },
    };
  }
  if (startDate < w.availableFrom) {
    return {
      path: 'startDate',
      message: /*i18n*/ {
        id: 'availability.from',
        message: 'This item is available from {day}.',
        values: { day: dayLabel(w.availableFrom) },
      },
    };
  }
  if (w.availableUntil && endDate > w.availableUntil) {
    return {
      path: 'startDate',
      message: /*i18n*/ {
        id: 'availability.until',
        message: 'This item is available until {day}.',
        values: { day: dayLabel(w.availableUntil) },
      },
    };
  }
  if (!inWindow(startDate, w) || !inWindow(endDate, w)) {
    return {
      path: 'startDate',
      message: /*i18n*/ {
        id: 'availability.days',
        message: 'Pickup and return must fall on days the lender is available.',
      },
    };
  }
  return null;
}

/** The same, its message written in the active language (the page's). */
export function rangeProblem(
  range: DayRange,
  w: AvailabilityWindow,
  today: string,
): { path: 'startDate' | 'endDate'; message: string } | null {
  const issue = rangeIssue(range, w, today);
  return issue && { path: issue.path, message: i18n._(issue.message) };
}

/** What the calendar knows: the window, today, and the days already booked. */
export interface CalendarAvailability extends AvailabilityWindow {
  today: string;
  booked: readonly DayRange[];
}

/** A day someone may pick up or return the item: in its window, not booked, not past. */
export function isSelectableDay(day: string, a: CalendarAvailability): boolean {
  return (
    day >= a.today && inWindow(day, a) && !a.booked.some((b) => overlaps(b, { startDate: day, endDate: day }))
  );
}

/** A range the calendar lets someone choose: both ends selectable and no booked day in between. */
export function isBookableRange(range: DayRange, a: CalendarAvailability): boolean {
  return (
    range.endDate >= range.startDate &&
    rangeIssue(range, a, a.today) === null &&
    !a.booked.some((b) => overlaps(b, range))
  );
}

/**
 * "Available now" (the Browse filter, a lender's "available" count): marked available, today in its
 * window and on one of its weekdays, and not out with a borrower. The SQL (items/queries.ts
 * availableNowCondition) says the same, and a test holds the two together.
 */
export function availableOn(
  item: AvailabilityWindow & { isAvailable: boolean; outWithBorrower: boolean },
  today: string,
): boolean {
  return item.isAvailable && inWindow(today, item) && !item.outWithBorrower;
}
