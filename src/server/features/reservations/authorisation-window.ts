import { msg } from '@lingui/core/macro';
import { AUTHORISATION_ANSWER_DAYS, authorisationLapsed } from '#shared/booking/booking-deadlines.ts';
import { conflict } from '../../errors.ts';

// Decision 057: a card authorisation is only kept AUTHORISATION_ANSWER_DAYS for the lender's answer.
// The expiry job ends a request (or a request for more days) then; an approval that comes between that
// instant and the job's next round is refused here, so no booking is approved with no money behind it.

const DAYS = AUTHORISATION_ANSWER_DAYS;

/** Refuses (409) the approval of a request whose card has been held as long as it may be. */
export function requireRequestStillHeld(row: { authorisedAt: Date | null }, now: Date) {
  if (!authorisationLapsed(row.authorisedAt, now)) return;
  throw conflict(
    msg`This request can no longer be approved: the borrower's card was held for it for ${DAYS} days, the longest it may be. The hold is released; the borrower can request again.`,
    'AUTHORISATION_LAPSED',
  );
}

/** Refuses (409) the approval of a request for more days whose card has been held as long as it may be. */
export function requireExtensionStillHeld(ext: { authorisedAt: Date | null }, now: Date) {
  if (!authorisationLapsed(ext.authorisedAt, now)) return;
  throw conflict(
    msg`This request for more days can no longer be approved: the borrower's card was held for it for ${DAYS} days, the longest it may be. The hold is released; the borrower can ask again.`,
    'AUTHORISATION_LAPSED',
  );
}
