import { msg } from '@lingui/core/macro';
import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import { confirmBy } from '#shared/booking/deposit-claims.ts';
import { type EarlyReturnRefund, earlyReturnRefund } from '#shared/booking/early-return.ts';
import { moneyPlan } from '#shared/booking/money-plan.ts';
import { toCents } from '#shared/booking/pricing.ts';
import { campusToday } from '#shared/calendar.ts';
import type { RentalPeriod } from '#shared/constants.ts';
import { dayWhenWritten } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { conflict } from '../../errors.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import { waitlistService } from '../waitlist/service.ts';
import { nowOf, type ReservationDeps } from './deps.ts';
import { approvedExtensionsOf, endExtensionsOf } from './extensions/with-booking.ts';
import type { LockedRow } from './locking.ts';
import { moneyOf } from './money.ts';
import {
  dollars,
  earlyEarningWords,
  earlyRefundWords,
  earlyReturnText,
  returnedTextForBorrower,
  returnedTextForLender,
} from './notices.ts';
import * as queries from './queries.ts';
import { settleDeposit } from './settle-deposit.ts';
import { rentalPaymentsOf } from './views.ts';

// The return: the borrower's word starts the lender's window (the deposit waits for it), the lender's
// confirm settles the deposit. Either may come before the booking's last day: an early return.

/**
 * Decision 034: the item came back (the borrower's return, or the lender's confirm of an active borrow)
 * on a campus day before the booking's last. Under the item's and the reservation's locks, in the status
 * change's transaction: the booking ends on the return day (every availability check reads its end date,
 * so the days after are free at once), the rental of the full periods left unused comes back by the
 * policy, on each payment that paid for them (a refund step of the outbox, a refund row for the
 * borrower, the lender's earning smaller by it), and both are told. The status change happens once, so
 * this does too: a second press finds the booking returned and is refused.
 */
async function endEarly(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  view: queries.ReservationRow,
  /** The refund the dialog showed, if it showed one: the return goes ahead only on the same amount. */
  shown?: string,
): Promise<EarlyReturnRefund | null> {
  const returnDay = campusToday(deps.timeZone, nowOf(deps)).date;
  const approved = await approvedExtensionsOf(tx, row.id);
  const payments = rentalPaymentsOf(row, approved);
  const early = earlyReturnRefund(
    {
      startDate: row.startDate,
      endDate: row.endDate,
      rentalPeriod: row.rentalPeriod as RentalPeriod | null,
      cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
      payments,
    },
    returnDay,
  );
  const refundCents = early?.refundCents ?? 0;
  if (shown !== undefined && toCents(shown) !== refundCents) {
    const today = dayWhenWritten(returnDay);
    const refundAmount = dollars(refundCents);
    const shownAmount = dollars(toCents(shown) ?? 0);
    throw conflict(
      msg`It is ${today} on campus now: returning today refunds ${refundAmount} of the rental, not ${shownAmount}. Check the amount and press again.`,
      'EARLY_REFUND_CHANGED',
    );
  }
  if (!early) return null;
  await queries.endEarly(tx, row.id, {
    endDate: early.newEndDate,
    bookedEndDate: row.endDate,
    earlyRefundCents: early.refundCents,
  });
  const names = { title: view.item.title, borrower: view.borrower.fullName };
  // Each payment (the booking's, then its approved extensions') gives back its share: the lender's
  // earning of it smaller by it, a refund to the borrower's card (the early return's money plan).
  const booking = {
    ...moneyOf(row),
    extensions: approved.map((ext) => ({ ...ext, status: 'approved' as const })),
  };
  await ledgerService.carryOut(
    tx,
    deps.jobs,
    { reservationId: row.id, borrowerId: row.borrowerId, lenderId: row.providerId },
    moneyPlan(booking, { type: 'earlyReturn', refunds: early.refunds }),
    (movement) =>
      movement.kind === 'earn'
        ? () => earlyEarningWords(names, early, row.endDate, -movement.amountCents)
        : () => earlyRefundWords(names.title, early, row.endDate, row.cancellationPolicy),
  );
  for (const userId of [row.borrowerId, row.providerId]) {
    const toBorrower = userId === row.borrowerId;
    await notificationService.notify(tx, {
      userId,
      type: 'early_return',
      text: () => earlyReturnText(toBorrower, names, early, row.endDate, row.cancellationPolicy),
      relatedReservationId: row.id,
      relatedItemId: row.itemId,
    });
  }
  return early;
}

/** The borrower's "Item Returned": the lender's window to confirm or report a problem starts. */
export async function markReturned(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  view: queries.ReservationRow,
  earlyRefund: string | undefined,
) {
  const id = row.id;
  const at = nowOf(deps);
  await queries.setStatus(tx, id, 'returned', { returnedAt: at });
  // A request for more days still waiting ends with the borrow.
  await endExtensionsOf(tx, deps, id);
  // Before its last day: the days after today are free at once, and whoever waits for them hears.
  if (await endEarly(tx, deps, row, view, earlyRefund)) {
    await waitlistService.offerFreedDates(tx, { itemId: row.itemId, timeZone: deps.timeZone });
  }
  const borrower = view.borrower.fullName;
  const lender = view.provider.fullName;
  const item = view.item.title;
  await notificationService.notify(tx, {
    userId: row.providerId,
    type: 'return_confirm',
    text: () => returnedTextForLender(confirmBy(at), deps.timeZone, { borrower, item }, row.depositCents),
    relatedReservationId: id,
    relatedItemId: row.itemId,
  });
  await notificationService.notify(tx, {
    userId: row.borrowerId,
    type: 'return_confirm',
    text: () => returnedTextForBorrower(confirmBy(at), deps.timeZone, { lender, item }, row.depositCents),
    relatedReservationId: id,
    relatedItemId: row.itemId,
  });
}

/**
 * The lender's "Returned in good condition". An item that came back before its last day (and before
 * the borrower said so) is an early return too; settleDeposit then tells the waitlist of the freed days.
 */
export async function confirmReturn(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  view: queries.ReservationRow,
  earlyRefund: string | undefined,
) {
  if (row.status === 'active') await endEarly(tx, deps, row, view, earlyRefund);
  await settleDeposit(tx, deps, row, view, { keptCents: 0, how: 'confirmed' });
}
