// Calendar days in the campus time zone (ARCHITECTURE §4): "today" for a student in California is
// not UTC's today in the evening.

/** Building a formatter costs far more than using one, and every catalogue request asks for today. */
function formatterPerZone(options: Intl.DateTimeFormatOptions): (timeZone: string) => Intl.DateTimeFormat {
  const built = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let formatter = built.get(timeZone);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
      built.set(timeZone, formatter);
    }
    return formatter;
  };
}

/** A calendar day's parts, as both formatters write them (YYYY, MM, DD). */
const DAY_PARTS = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;

const dayFormatter = formatterPerZone({ ...DAY_PARTS, weekday: 'short' });

/** The last answer: every catalogue request asks for today, and the day changes once a day. */
let lastToday: { timeZone: string; second: number; value: { date: string; weekday: number } } | undefined;

/** Today's date (YYYY-MM-DD) and weekday (0 = Sunday) in the given time zone. */
export function campusToday(timeZone: string, now = new Date()): { date: string; weekday: number } {
  const second = Math.floor(now.getTime() / 1000);
  if (lastToday && lastToday.second === second && lastToday.timeZone === timeZone) return lastToday.value;
  const parts = dayFormatter(timeZone).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const value = Object.freeze({
    date: `${get('year')}-${get('month')}-${get('day')}`,
    weekday: weekdays.indexOf(get('weekday')),
  });
  lastToday = { timeZone, second, value };
  return value;
}

/** The wall clock, to the second, in a time zone. */
const clockFormatter = formatterPerZone({
  ...DAY_PARTS,
  hourCycle: 'h23',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The offset of the time zone from UTC at that instant, in milliseconds (negative west of Greenwich). */
function zoneOffsetMs(timeZone: string, at: Date): number {
  const parts = clockFormatter(timeZone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant the campus clock shows `hour`:00 on a calendar day (YYYY-MM-DD). */
export function campusAt(date: string, hour: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);
  // The offset at the first guess can differ from the offset at that hour itself across a DST change.
  const guess = wall - zoneOffsetMs(timeZone, new Date(wall));
  return new Date(wall - zoneOffsetMs(timeZone, new Date(guess)));
}

/** The instant a calendar day (YYYY-MM-DD) begins on campus. */
export function campusMidnight(date: string, timeZone: string): Date {
  return campusAt(date, 0, timeZone);
}

/**
 * Where the campus's calendar periods begin: this week (Monday), this month and last month. The
 * impact dashboard counts "this month" and "this week" by these, not by UTC's.
 */
export function campusPeriods(
  timeZone: string,
  now = new Date(),
): { weekStart: Date; monthStart: Date; lastMonthStart: Date } {
  const { date, weekday } = campusToday(timeZone, now);
  const [year, month] = date.split('-').map(Number) as [number, number];
  const monday = new Date(`${date}T12:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - ((weekday + 6) % 7));
  const first = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
  return {
    weekStart: campusMidnight(monday.toISOString().slice(0, 10), timeZone),
    monthStart: campusMidnight(first(year, month), timeZone),
    lastMonthStart: campusMidnight(month === 1 ? first(year - 1, 12) : first(year, month - 1), timeZone),
  };
}
