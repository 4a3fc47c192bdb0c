import { t } from '@lingui/core/macro';
import { intlLocale } from '#shared/format.ts';

// How the reservation screens write days and instants, in the app's language: Intl with the active
// locale ('Tue, Dec 1' in English, 'mar, 1 de dic' in Spanish). Calendar days 'YYYY-MM-DD' are read and
// written in UTC, so no time zone moves them; instants are written in the reader's zone.

const DAY_STYLES = {
  /** 'Tuesday, December 1, 2026' */
  full: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
  /** 'Dec 1, 2026' */
  medium: { month: 'short', day: 'numeric', year: 'numeric' },
  /** 'Dec 1' */
  short: { month: 'short', day: 'numeric' },
  /** 'Tue, Dec 1' */
  weekday: { weekday: 'short', month: 'short', day: 'numeric' },
  /** 'Tue, Dec 1, 2026' */
  weekdayYear: { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' },
  /** 'December 2026' */
  month: { month: 'long', year: 'numeric' },
  /** 'Dec' */
  monthShort: { month: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DayStyle = keyof typeof DAY_STYLES;

/** Browsers put narrow and thin spaces in dates and times ('3:30 PM'); the screens write plain ones. */
const plainSpaces = (text: string) => text.replace(/[\u202f\u2009\u00a0]/g, ' ');

const utcNoon = (day: string) => {
  const [y = 1970, m = 1, d = 1] = day.slice(0, 10).split('-').map(Number);
  return Date.UTC(y, m - 1, d, 12);
};

const dayFormat = (style: DayStyle) =>
  new Intl.DateTimeFormat(intlLocale(), { ...DAY_STYLES[style], timeZone: 'UTC' });

/** A calendar day as a person reads it: 'Tuesday, December 1, 2026' (style 'full'). */
export function dayLabel(day: string, style: DayStyle = 'full'): string {
  return plainSpaces(dayFormat(style).format(utcNoon(day)));
}

/** The same, cut before its year: ['Tue, Dec 1', ', 2026'] (the year may hide on small screens). */
export function dayLabelYearApart(day: string): [string, string] {
  const parts = dayFormat('weekdayYear').formatToParts(utcNoon(day));
  const year = parts.findIndex((p) => p.type === 'year');
  // The year and what leads to it, when it comes last; else nothing to cut.
  const cut = year === parts.length - 1 && parts[year - 1]?.type === 'literal' ? year - 1 : parts.length;
  const text = (from: number, to?: number) =>
    plainSpaces(
      parts
        .slice(from, to)
        .map((p) => p.value)
        .join(''),
    );
  return [text(0, cut), text(cut)];
}

/** The week's days from Sunday: [short, long] ('Sun', 'Sunday'). */
export function weekdayNames(): [string, string][] {
  const short = new Intl.DateTimeFormat(intlLocale(), { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(intlLocale(), { weekday: 'long', timeZone: 'UTC' });
  // 2026-11-29 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => {
    const sunday = Date.UTC(2026, 10, 29 + i, 12);
    return [short.format(sunday), long.format(sunday)];
  });
}

/** 'Nov 27–29', 'Nov 30 – Dec 2', or 'Nov 27' for one day. */
export function dayRange(startDate: string, endDate: string): string {
  if (startDate === endDate) return dayLabel(startDate, 'short');
  if (startDate.slice(0, 7) === endDate.slice(0, 7)) {
    const month = dayLabel(startDate, 'monthShort');
    const startDay = Number(startDate.slice(8, 10));
    const endDay = Number(endDate.slice(8, 10));
    return t`${month} ${startDay}–${endDay}`;
  }
  const start = dayLabel(startDate, 'short');
  const end = dayLabel(endDate, 'short');
  return t`${start} – ${end}`;
}

const timeFormat = () => new Intl.DateTimeFormat(intlLocale(), { hour: 'numeric', minute: '2-digit' });

/** An instant in the reader's zone: 'Thu, Nov 26 at 3:30 PM' (style 'weekday'), 'Nov 26 at 3:30 PM'. */
export function dateTime(iso: string | Date, style: 'weekday' | 'short' = 'weekday'): string {
  const at = typeof iso === 'string' ? new Date(iso) : iso;
  const date = plainSpaces(new Intl.DateTimeFormat(intlLocale(), DAY_STYLES[style]).format(at));
  const time = plainSpaces(timeFormat().format(at));
  return t`${date} at ${time}`;
}
