import { msg } from '@lingui/core/macro';
import {
  AUTHORISATION_ANSWER_DAYS,
  authorisationLapsed as cardHeldTooLong,
} from '#shared/booking/booking-deadlines.ts';
import { moneyPlan } from '#shared/booking/money-plan.ts';
import { campusToday } from '#shared/calendar.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { BOOKED_FOR_OVERLAPPING_DATES, overlapDeclinedText, writtenFor } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict } from '../../errors.ts';
import { askService } from '../asks/service.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { ledgerService } from '../ledger/service.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import { payoutService } from '../payouts/service.ts';
import { requireRequestStillHeld } from './authorisation-window.ts';
import { type ExtensionDeps, nowOf, type ReservationDeps } from './deps.ts';
import { declineOverlappingExtensions } from './extensions/with-booking.ts';
import { changeStatus, newPickupCode, requireTransition, roleOf, withItemLocked } from './locking.ts';
import { heldBy, moneyOf } from './money.ts';
import {
  approvedText,
  declinedText,
  type ExpiryReason,
  earningWords,
  expiredReasonWords,
  expiredTextForBorrower,
  expiredTextForLender,
  paymentWords,
} from './notices.ts';
import * as queries from './queries.ts';
import { loadForViewer } from './views.ts';

// The answer to a request: the lender approves (the card is charged, the requests that wanted the same
// days lose) or declines, or the system ends it unanswered. Declining the requests an approval beat is
// shared with an approved extension, which takes days the same way.

/** A request waiting for the lender, as the overlap decline needs it. */
export interface OverlappingRequest {
  id: string;
  status: string;
  borrowerId: string;
  startDate: string;
  endDate: string;
  depositCents: number;
  rentalCents: number;
  serviceFeeCents: number;
  stripePaymentIntentId: string | null;
}

/**
 * A pending request whose days an approval (of a booking or of more days of one) just took: declined
 * by the status table's rule as the item's lender, its borrower told, its hold released. Inside the
 * approval's transaction, under the item's lock.
 */
export async function declineOverlapping(
  tx: Db,
  deps: ExtensionDeps,
  other: OverlappingRequest,
  item: { id: string; title: string },
) {
  requireTransition(other.status, 'decline', 'provider');
  await queries.setStatus(tx, other.id, 'declined', {
    declineReason: await writtenFor(tx, other.borrowerId, () => BOOKED_FOR_OVERLAPPING_DATES),
  });
  await notificationService.notify(tx, {
    userId: other.borrowerId,
    type: 'reservation_declined',
    text: () => overlapDeclinedText(item.title, other),
    relatedReservationId: other.id,
    relatedItemId: item.id,
  });
  await ledgerService.release(tx, deps.jobs, { ...heldBy(other), purpose: 'overlap' });
}

/** Approve (lender): charges the payment and declines the overlapping pending requests. */
export async function approve(
  deps: ReservationDeps,
  lender: { id: string; email: string; isVerified: boolean },
  id: string,
): Promise<Reservation> {
  emailVerificationService.requireVerified(lender);
  const userId = lender.id;
  await withItemLocked(deps, id, async (tx, row) => {
    requireTransition(row.status, 'approve', roleOf(row, userId));
    requireRequestStillHeld(row, nowOf(deps));
    // A paid request's money goes to the lender's connected account: it must be able to receive it.
    if (row.stripePaymentIntentId) await payoutService.requireActive(tx, row.providerId);
    if ((await queries.findOverlapping(tx, row.itemId, row.startDate, row.endDate)).length) {
      throw conflict(msg`Those dates overlap an existing reservation.`, 'DATES_TAKEN');
    }
    await queries.setStatus(tx, id, 'approved', { pickupCode: newPickupCode(), pickupCodeAttempts: 0 });
    await notificationService.actedOn(tx, userId, id, ['reservation_request', 'request_expiring']);
    const view = (await queries.findReservation(tx, id))!;
    const title = view.item.title;
    const borrower = view.borrower.fullName;
    await notificationService.notify(tx, {
      userId: row.borrowerId,
      type: 'reservation_approved',
      text: () =>
        approvedText(
          {
            ...row,
            // Decision 062: not held yet, charged on the campus day its hold comes due.
            chargeOn:
              row.authoriseFrom && !row.authorisedAt
                ? campusToday(deps.timeZone, row.authoriseFrom).date
                : null,
          },
          { lender: view.provider.fullName, item: title },
        ),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
    // The hold is charged and the lender earns the rental; rows wait as pending until the capture step
    // has charged the card (decision 012).
    await ledgerService.carryOut(
      tx,
      deps.jobs,
      { reservationId: id, borrowerId: row.borrowerId, lenderId: row.providerId },
      moneyPlan(moneyOf(row), { type: 'approve' }),
      (movement) =>
        movement.kind === 'earn' ? () => earningWords(title, borrower) : () => paymentWords(title, row),
    );
    for (const other of await queries.findOverlappingPending(
      tx,
      row.itemId,
      row.startDate,
      row.endDate,
      id,
    )) {
      await declineOverlapping(tx, deps, other, { id: row.itemId, title });
    }
    // Requests for more days on other bookings that wanted these days lose too.
    await declineOverlappingExtensions(tx, deps, row);
    // The borrower's asks this item was offered for are answered: they close, linked to this booking.
    await askService.reservationApproved(
      tx,
      { id, itemId: row.itemId, borrowerId: row.borrowerId },
      nowOf(deps),
    );
  });
  return loadForViewer(deps, id, userId);
}

export async function decline(
  deps: ReservationDeps,
  userId: string,
  id: string,
  reason?: string,
): Promise<Reservation> {
  await changeStatus(deps, userId, id, 'decline', async (tx, row, view) => {
    await queries.setStatus(tx, id, 'declined', { declineReason: reason?.trim() || null });
    await notificationService.actedOn(tx, userId, id, ['reservation_request', 'request_expiring']);
    const names = { lender: view.provider.fullName, item: view.item.title };
    const why = reason?.trim();
    const paid = Boolean(row.stripePaymentIntentId);
    await notificationService.notify(tx, {
      userId: row.borrowerId,
      type: 'reservation_declined',
      text: () => declinedText(row, names, why, paid),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
    await ledgerService.release(tx, deps.jobs, { ...heldBy(row), purpose: 'decline' });
  });
  return loadForViewer(deps, id, userId);
}

/** Ends a pending request on the system's behalf, releasing its money and telling both. */
async function expire(deps: ReservationDeps, id: string, reason: ExpiryReason, now: Date): Promise<boolean> {
  try {
    await changeStatus(deps, null, id, 'expire', async (tx, row, view) => {
      // Unanswered while its card was held as long as it may be: said so (decision 057).
      const why = reason === 'unanswered' && cardHeldTooLong(row.authorisedAt, now) ? 'held' : reason;
      await queries.setStatus(tx, id, 'cancelled', {
        declineReason: await writtenFor(tx, row.borrowerId, () => expiredReasonWords(why)),
      });
      const item = view.item.title;
      const lender = view.provider.fullName;
      const borrower = view.borrower.fullName;
      const texts: [string, () => NoticeText][] = [
        [row.borrowerId, () => expiredTextForBorrower(row, { item, lender }, why)],
        [row.providerId, () => expiredTextForLender(row, { item, borrower }, why)],
      ];
      for (const [userId, text] of texts) {
        await notificationService.notify(tx, {
          userId,
          type: 'reservation_expired',
          text,
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
      }
      await ledgerService.release(tx, deps.jobs, { ...heldBy(row), purpose: 'expiry' });
    });
    return true;
  } catch (error) {
    // Answered meanwhile (409): nothing to expire.
    if (error instanceof AppError) return false;
    throw error;
  }
}

/**
 * Pending requests unanswered for `hours`, whose start day has come, or whose card has been held for
 * AUTHORISATION_ANSWER_DAYS: cancelled, money released, both told.
 */
export async function expirePending(deps: ReservationDeps, hours: number, now = new Date()): Promise<number> {
  const today = campusToday(deps.timeZone, now).date;
  const expired = await queries.findExpiredPending(
    deps.db,
    new Date(now.getTime() - hours * 3600_000),
    today,
    new Date(now.getTime() - AUTHORISATION_ANSWER_DAYS * 86_400_000),
  );
  let count = 0;
  for (const { id } of expired) {
    if (await expire(deps, id, 'unanswered', now)) count++;
  }
  return count;
}

/**
 * The provider cancelled a payment's authorisation on its own (it lapsed, or the bank withdrew it):
 * a request still waiting for the lender cannot be paid for any more, so it ends now, rather than
 * being approved with no money behind it. Answers whether a request was ended.
 */
export async function authorisationLapsed(deps: ReservationDeps, paymentIntentId: string): Promise<boolean> {
  const reservation = await queries.findByPaymentIntent(deps.db, paymentIntentId);
  return reservation ? expire(deps, reservation.id, 'authorisation', new Date()) : false;
}
