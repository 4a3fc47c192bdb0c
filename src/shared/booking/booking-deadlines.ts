import { campusMidnight } from '../calendar.ts';
import { addDays } from './availability.ts';

// When a booking's open questions run out, read by the server (which expires by them), its reminders
// and the screens that say "the lender answers by …". Pure: the clock and the campus time zone are
// given, so the rule reads the same everywhere.

/**
 * A pending request's answer-by instant (also when its lender is reminded): its age reaches the expiry
 * hours, or its start day has passed, whichever comes first.
 */
export function requestAnswerBy(
  row: { createdAt: Date; startDate: string },
  expiryHours: number,
  timeZone: string,
): Date {
  const byAge = row.createdAt.getTime() + expiryHours * 3600_000;
  const byStart = campusMidnight(addDays(row.startDate, 1), timeZone).getTime();
  return new Date(Math.min(byAge, byStart));
}

/** A pending request for more days lapses at the end of the booking's current last day (campus time). */
export function extensionLapsesAt(previousEndDate: string, timeZone: string): Date {
  return campusMidnight(addDays(previousEndDate, 1), timeZone);
}
