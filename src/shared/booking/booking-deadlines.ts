import { campusMidnight } from '../calendar.ts';
import { addDays } from './availability.ts';

// When a booking's open questions run out, read by the server (which expires by them), its reminders
// and the screens that say "the lender answers by …". Pure: the clock and the campus time zone are
// given, so the rule reads the same everywhere.

/**
 * How long a card authorisation is kept waiting for an answer (decision 057). Card networks let a
 * manual-capture authorisation lapse after about 7 days, after which its capture fails for good; a
 * request (or a request for more days) ends a day before that, whatever RESERVATION_EXPIRY_HOURS or its
 * dates would allow, so no approval is ever left with no money behind it.
 */
export const AUTHORISATION_ANSWER_DAYS = 6;

/** The instant a card authorised at `authorisedAt` stops being kept for an answer. */
export function authorisationAnswerBy(authorisedAt: Date): Date {
  return new Date(authorisedAt.getTime() + AUTHORISATION_ANSWER_DAYS * 86_400_000);
}

/** Whether the card's authorisation (null: nothing was authorised) is past the time it is kept for. */
export function authorisationLapsed(authorisedAt: Date | null | undefined, now: Date): boolean {
  return Boolean(authorisedAt) && authorisationAnswerBy(authorisedAt!) <= now;
}

function earliest(first: Date, authorisedAt: Date | null | undefined): Date {
  if (!authorisedAt) return first;
  const byCard = authorisationAnswerBy(authorisedAt);
  return byCard < first ? byCard : first;
}

/**
 * A pending request's answer-by instant (also when its lender is reminded): its age reaches the expiry
 * hours, or its start day has passed, or its card has been authorised for AUTHORISATION_ANSWER_DAYS,
 * whichever comes first.
 */
export function requestAnswerBy(
  row: { createdAt: Date; startDate: string; authorisedAt?: Date | null },
  expiryHours: number,
  timeZone: string,
): Date {
  const byAge = row.createdAt.getTime() + expiryHours * 3600_000;
  const byStart = campusMidnight(addDays(row.startDate, 1), timeZone).getTime();
  return earliest(new Date(Math.min(byAge, byStart)), row.authorisedAt);
}

/**
 * A pending request for more days lapses at the end of the booking's current last day (campus time), or
 * when its card has been authorised for AUTHORISATION_ANSWER_DAYS, whichever comes first.
 */
export function extensionLapsesAt(
  previousEndDate: string,
  timeZone: string,
  authorisedAt?: Date | null,
): Date {
  return earliest(campusMidnight(addDays(previousEndDate, 1), timeZone), authorisedAt);
}
