import { moneyPlan } from '#shared/booking/money-plan.ts';
import type { Db } from '../../db/client.ts';
import { impactService } from '../impact/service.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import { payoutService } from '../payouts/service.ts';
import { reviewService } from '../reviews/service.ts';
import { waitlistService } from '../waitlist/service.ts';
import {
  depositRefundedText,
  depositRefundWords,
  keptEarningWords,
  type SettledAmounts,
  type Settlement,
  settledText,
} from './deposit-notices.ts';
import { nowOf, type ReservationDeps } from './deps.ts';
import { endExtensionsOf } from './extensions/with-booking.ts';
import type { LockedRow } from './locking.ts';
import { moneyOf } from './money.ts';
import * as queries from './queries.ts';

/**
 * The end of a borrow: completed, and its deposit back but for what the lender keeps (an accepted claim
 * or a moderator's award). The lender's earning grows by what they keep, the borrower's refund row says
 * what comes back, and both are told. One home for the lender's confirm, the window closing, an accepted
 * claim and a moderator's decision.
 */
export async function settleDeposit(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  view: queries.ReservationRow,
  how: Settlement,
) {
  const id = row.id;
  const kept = Math.min(how.keptCents, row.depositCents);
  const back = row.depositCents - kept;
  const claimed = how.how === 'accepted' || how.how === 'decided';
  await queries.setStatus(tx, id, 'completed', {
    ...(claimed ? { awardedCents: kept, resolvedAt: nowOf(deps) } : {}),
    ...(how.how === 'decided' ? { resolvedBy: how.moderatorId } : {}),
  });
  // A request for more days still waiting ends with the booking (the lender may confirm straight from
  // 'active').
  await endExtensionsOf(tx, deps, id);
  // The days are free now; whoever waits for them is told in this transaction.
  await waitlistService.offerFreedDates(tx, { itemId: row.itemId, timeZone: deps.timeZone });
  await impactService.recordCompletion(tx, id);
  // Review requests and the badges the completion earned, in this transaction.
  await reviewService.reservationCompleted(tx, id);
  await notificationService.actedOn(tx, row.providerId, id, ['return_confirm', 'overdue']);
  const names = { title: view.item.title, borrower: view.borrower.fullName, lender: view.provider.fullName };
  const paid = Boolean(row.stripePaymentIntentId) && row.depositCents > 0;
  const amounts: SettledAmounts = {
    depositCents: row.depositCents,
    claimCents: row.claimCents,
    kept,
    back,
    paid,
  };
  // What the lender keeps is added to their earning, the rest of the deposit comes back (its money plan).
  await ledgerService.carryOut(
    tx,
    deps.jobs,
    { reservationId: id, borrowerId: row.borrowerId, lenderId: row.providerId },
    moneyPlan(moneyOf(row), { type: 'depositSettled', keptCents: kept }),
    (movement) =>
      movement.kind === 'earn'
        ? () => keptEarningWords(names, kept)
        : () => depositRefundWords(names.title, amounts),
  );
  // Everything the lender earned on the booking and not sent yet goes now (decision 056, "Transfers").
  if (row.stripePaymentIntentId) {
    const now = nowOf(deps);
    await payoutService.scheduleTransfers(tx, deps.jobs, {
      reservationId: id,
      lenderId: row.providerId,
      purpose: 'rental_rest',
      releaseAt: now,
      now,
    });
  }
  for (const userId of [row.borrowerId, row.providerId]) {
    await notificationService.notify(tx, {
      userId,
      type: 'reservation_completed',
      text: () => settledText(how, names, amounts),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
  }
  if (paid && back > 0) {
    await notificationService.notify(tx, {
      userId: row.borrowerId,
      type: 'deposit_refunded',
      text: () => depositRefundedText(names.title, amounts),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
  }
}
