import { t } from '@lingui/core/macro';
import { AUTHORISATION_ANSWER_DAYS } from '#shared/booking/booking-deadlines.ts';
import { dateTime } from './dates.ts';

// The Reserve dialog's promise of how long a request waits (decision 057): the server says by when a
// request made now must be answered (its expiry hours, its start day, or six days of the card held,
// whichever is first); after that the request ends and the hold goes.

/** 'If Maya has not answered by Fri, Dec 4 at 3:00 PM, …': the line under the payment step's heading. */
export function answerWindowNote(lenderName: string, answerByIso: string): string {
  const by = dateTime(answerByIso, 'weekday');
  const days = AUTHORISATION_ANSWER_DAYS;
  return t`If ${lenderName} has not answered by ${by}, the request ends and the hold on your card is released. A card is never held for a request longer than ${days} days.`;
}

/** Decision 062: a booking far ahead holds nothing while the lender answers; only its answer-by is said. */
export function savedCardAnswerNote(lenderName: string, answerByIso: string): string {
  const by = dateTime(answerByIso, 'weekday');
  return t`If ${lenderName} has not answered by ${by}, the request ends and your saved card is never charged for it.`;
}
