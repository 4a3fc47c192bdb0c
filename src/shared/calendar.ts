// Calendar days in the campus time zone (ARCHITECTURE §4): "today" for a student in California is
// not UTC's today in the evening.

/** Today's date (YYYY-MM-DD) and weekday (0 = Sunday) in the given time zone. */
export function campusToday(timeZone: string, now = new Date()): { date: string; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return { date: `${get('year')}-${get('month')}-${get('day')}`, weekday: weekdays.indexOf(get('weekday')) };
}
