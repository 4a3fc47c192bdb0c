import { msg } from '@lingui/core/macro';
import { moneyPlan } from '#shared/booking/money-plan.ts';
import { writtenFor } from '../../booking-words.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, conflict, forbidden, notFound } from '../../errors.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import { paymentStepService } from '../payment-steps/service.ts';
import { nowOf, type ReservationDeps } from './deps.ts';
import { cancelExtensionsOf } from './extensions/with-booking.ts';
import { changeStatus, withItemLocked } from './locking.ts';
import { moneyOf } from './money.ts';
import {
  cancelledRefundWords,
  unpaidReasonWords,
  unpaidTextForBorrower,
  unpaidTextForLender,
} from './notices.ts';
import * as queries from './queries.ts';

// Decision 062: a booking that starts far ahead holds nothing at the request; its saved card is held
// off-session close to the start (a payment step, features/payment-steps). When the bank refuses, the
// borrower fixes the card here (the same card confirmed in person, 3-D Secure if the bank asks, or
// another saved card) by a deadline; past it, the booking is cancelled with nothing charged.

const HOLDING = ['pending', 'approved'];

/** The intent is held now: the waiting authorisation step runs again (it finds it held), under the item's lock. */
async function resume(deps: ReservationDeps, id: string, paymentMethod: string | null): Promise<boolean> {
  let resumed = false;
  await withItemLocked(deps, id, async (tx, row) => {
    if (!HOLDING.includes(row.status) || !row.stripePaymentIntentId || !row.cardProblem) return;
    if (paymentMethod) await queries.setOffSessionCard(tx, id, paymentMethod);
    resumed = await paymentStepService.resumeAuthorisation(tx, deps.jobs, row.stripePaymentIntentId);
  });
  return resumed;
}

/**
 * The borrower's fix: one of their saved cards confirms the booking's payment with them present. The
 * bank may still ask them to authenticate (answered with where to go); a decline is a 402 as at checkout.
 */
export async function fixCard(
  deps: ReservationDeps,
  userId: string,
  id: string,
  input: { paymentMethodId: string },
): Promise<{ status: string; paymentIntentId: string; nextActionUrl: string | null }> {
  const row = await queries.findReservation(deps.db, id);
  if (!row || (row.borrowerId !== userId && row.providerId !== userId)) {
    throw notFound(msg`Reservation not found.`);
  }
  if (row.borrowerId !== userId) throw forbidden(msg`Only the borrower can fix the card of a booking.`);
  if (!HOLDING.includes(row.status) || !row.cardProblem || !row.stripePaymentIntentId) {
    throw conflict(msg`This booking's card needs nothing from you.`, 'CARD_NOT_NEEDED');
  }
  if (row.cardFixBy && row.cardFixBy <= nowOf(deps)) {
    throw conflict(msg`The time to fix this booking's card is over.`, 'CARD_FIX_LATE');
  }
  const saved = await queries.savedCardOf(deps.db, userId, input.paymentMethodId);
  const customerId = await queries.customerIdOf(deps.db, userId);
  if (!saved || !customerId) throw notFound(msg`Payment method not found.`);
  const intent = await deps.payments.confirmWithSavedCard({
    paymentIntentId: row.stripePaymentIntentId,
    paymentMethodId: saved.stripePaymentMethodId,
    customerId,
    // One confirmation per card and problem: a double click confirms once.
    idempotencyKey: `fix-card-${row.stripePaymentIntentId}-${input.paymentMethodId}-${row.cardFixBy?.getTime()}`,
  });
  if (intent.status === 'requires_capture') await resume(deps, id, saved.stripePaymentMethodId);
  else await transaction(deps.db, (tx) => queries.setOffSessionCard(tx, id, saved.stripePaymentMethodId));
  return { status: intent.status, paymentIntentId: intent.id, nextActionUrl: intent.nextActionUrl ?? null };
}

/**
 * Back from the bank's 3-D Secure page (or a look before the deadline): when the booking's payment is
 * held now, its waiting authorisation goes on. Answers whether it did.
 */
export async function resumeIfHeld(deps: ReservationDeps, id: string): Promise<boolean> {
  const row = await queries.findReservation(deps.db, id);
  if (!row?.cardProblem || !row.stripePaymentIntentId || !HOLDING.includes(row.status)) return false;
  const intent = await deps.payments.retrievePaymentIntent(row.stripePaymentIntentId);
  if (intent.status !== 'requires_capture') return false;
  return resume(deps, id, null);
}

/**
 * Bookings whose card was not fixed by its deadline: cancelled by the system, everything given back
 * (nothing was charged: the charge waits behind the hold), both people told. A payment the borrower did
 * fix at the bank without coming back is looked up first and goes on instead.
 */
export async function cancelUnfixedCards(deps: ReservationDeps, now = new Date()): Promise<number> {
  let count = 0;
  for (const { id } of await queries.findUnfixedCards(deps.db, now)) {
    if (await resumeIfHeld(deps, id).catch(() => false)) continue;
    try {
      await changeStatus(deps, null, id, 'unpaid', async (tx, row, view) => {
        if (!row.cardProblem || !row.cardFixBy || row.cardFixBy > now) return;
        const wasApproved = row.status === 'approved';
        await queries.setStatus(tx, id, 'cancelled', {
          cancelledBy: 'system',
          declineReason: await writtenFor(tx, row.borrowerId, unpaidReasonWords),
        });
        await cancelExtensionsOf(tx, deps, id);
        const item = view.item.title;
        const borrower = view.borrower.fullName;
        await notificationService.notify(tx, {
          userId: row.borrowerId,
          type: 'reservation_cancelled',
          text: () => unpaidTextForBorrower(row, item),
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
        await notificationService.notify(tx, {
          userId: row.providerId,
          type: 'reservation_cancelled',
          text: () => unpaidTextForLender(row, { item, borrower }),
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
        // Not the borrower's choice of cancelling: all of it comes back, as a lender's cancellation gives.
        await ledgerService.carryOut(
          tx,
          deps.jobs,
          { reservationId: id, borrowerId: row.borrowerId, lenderId: row.providerId },
          moneyPlan(moneyOf(row), {
            type: 'cancel',
            by: 'provider',
            approved: wasApproved,
            at: now,
            timeZone: deps.timeZone,
          }),
          () => () => cancelledRefundWords(item, row),
        );
        count++;
      });
    } catch (error) {
      // Answered or cancelled meanwhile (409): nothing to do.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return count;
}
