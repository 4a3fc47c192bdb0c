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

/**
 * Decision 062: how many days before its start a far-ahead booking's saved card is authorised
 * off-session (AUTHORISE_AHEAD_DAYS' default). A hold made then lives past the start day.
 */
export const DEFAULT_AUTHORISE_AHEAD_DAYS = 5;

/** How long the borrower has to fix a card the off-session authorisation failed on (or the booking ends). */
export const CARD_FIX_HOURS = 48;

/**
 * When a booking requested at `now` has its card authorised: null when at the request (it starts
 * within `aheadDays`), else the campus midnight `aheadDays` before its start day, when the
 * off-session authorisation becomes due.
 */
export function deferredAuthorisationFrom(
  startDate: string,
  aheadDays: number,
  timeZone: string,
  now: Date,
): Date | null {
  const from = campusMidnight(addDays(startDate, -aheadDays), timeZone);
  return from > now ? from : null;
}

/**
 * By when a borrower fixes a card whose off-session authorisation failed at `failedAt`:
 * CARD_FIX_HOURS later, and never after the start day begins (the lender must know before the meetup).
 */
export function cardFixBy(failedAt: Date, startDate: string, timeZone: string): Date {
  const byHours = failedAt.getTime() + CARD_FIX_HOURS * 3600_000;
  const byStart = campusMidnight(startDate, timeZone).getTime();
  return new Date(Math.max(failedAt.getTime(), Math.min(byHours, byStart)));
}
