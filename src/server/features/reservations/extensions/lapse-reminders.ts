import { extensionLapsesAt } from '#shared/booking/booking-deadlines.ts';
import { transaction } from '../../../db/transaction.ts';
import { notificationService } from '../../notifications/service.ts';
import { reminderService } from '../../reminders/service.ts';
import { type ExtensionDeps, nowOf } from '../deps.ts';
import { lapsingTextForLender } from './notices.ts';
import * as queries from './queries.ts';

// Decision 057: a request for more days lapses at the end of the booking's last day or six days after
// its card was authorised, whichever is first; half a day before, its lender is reminded once, as a
// booking request's lender is (reminders' request_expiring). The row records the reminder in the
// notice's transaction, so two rounds at once send one.

/** One round: reminds the lenders of the requests for more days that lapse within half a day. */
export async function remindLapsing(deps: ExtensionDeps): Promise<number> {
  const now = nowOf(deps);
  let sent = 0;
  for (const ext of await queries.pendingNotReminded(deps.db)) {
    const lapsesAt = extensionLapsesAt(ext.previousEndDate, deps.timeZone, ext.authorisedAt);
    const dueAt = new Date(lapsesAt.getTime() - reminderService.answerReminderMs);
    // Not due yet, lapsed already (the expiry round ends it), or asked with less than half a day left
    // (the request's own notice just told the lender).
    if (now < dueAt || now >= lapsesAt || dueAt < ext.createdAt) continue;
    const told = await transaction(deps.db, async (tx) => {
      if (!(await queries.markLapseReminded(tx, ext.id, now))) return false;
      const booking = await queries.findBooking(tx, ext.reservationId);
      if (!booking) return false;
      const borrower = booking.borrowerName;
      const item = booking.itemTitle;
      const timeZone = deps.timeZone;
      await notificationService.notify(tx, {
        userId: ext.providerId,
        type: 'extension_requested',
        text: () => lapsingTextForLender(borrower, item, ext, lapsesAt, timeZone),
        relatedReservationId: ext.reservationId,
        relatedItemId: ext.itemId,
      });
      return true;
    });
    if (told) sent++;
  }
  return sent;
}
