import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { BOOKED_STATUSES } from '#shared/booking/availability.ts';
import { AUTHORISATION_ANSWER_DAYS, authorisationLapsed } from '#shared/booking/booking-deadlines.ts';
import { EXTENDABLE_STATUSES, extraDays } from '#shared/booking/extensions.ts';
import { campusToday } from '#shared/calendar.ts';
import type { Extension } from '#shared/schemas/extensions.ts';
import type { Db } from '../../../db/client.ts';
import { transaction } from '../../../db/transaction.ts';
import { AppError, conflict, forbidden, notFound } from '../../../errors.ts';
import { emailVerificationService } from '../../email-verification/service.ts';
import { ledgerService } from '../../ledger/service.ts';
import { type NoticeText, notificationService } from '../../notifications/service.ts';
import { payoutService } from '../../payouts/service.ts';
import { reminderService } from '../../reminders/service.ts';
import { declineOverlapping } from '../answer.ts';
import { requireExtensionStillHeld } from '../authorisation-window.ts';
import { type ExtensionDeps, nowOf } from '../deps.ts';
import * as reservationQueries from '../queries.ts';
import {
  approvedTextForBorrower,
  approvedTextForLender,
  cancelledText,
  declinedText,
  earningWords,
  expiredTextForBorrower,
  expiredTextForLender,
  paymentWords,
} from './notices.ts';
import * as queries from './queries.ts';
import { toExtension } from './views.ts';
import { heldByExtension } from './with-booking.ts';

// Decision 031: the lender approves or declines a request for more days; the borrower may take it back;
// unanswered, it lapses when the booking's current last day is over. Approval moves the booking's end
// date under the item's lock, so of two approvals that want the same days one wins; it charges the extra
// rental and declines the requests for those days as a booking's approval does, with the same code.

/** A request for more days already answered (or lapsed, or taken back). */
const ALREADY_ANSWERED: Record<string, MessageDescriptor> = {
  approved: msg`This request for more days was already approved.`,
  declined: msg`This request for more days was already declined.`,
  cancelled: msg`This request for more days was already cancelled.`,
  expired: msg`This request for more days was already expired.`,
};

/**
 * Runs `apply` on the extension in one transaction that holds the item's lock, then the booking's, then
 * the extension's: the reservations' lock order with one more row at its end.
 */
async function withLocks<T>(
  deps: ExtensionDeps,
  id: string,
  apply: (tx: Db, ext: queries.ExtensionRow, booking: queries.Booking) => Promise<T>,
): Promise<T> {
  const found = await queries.findExtension(deps.db, id);
  if (!found) throw notFound(msg`Extension not found.`);
  return transaction(deps.db, async (tx) => {
    await reservationQueries.lockItem(tx, found.itemId);
    await reservationQueries.lockReservation(tx, found.reservationId);
    const ext = await queries.lockExtension(tx, id);
    const booking = await queries.findBooking(tx, found.reservationId);
    if (!ext || !booking) throw notFound(msg`Extension not found.`);
    return apply(tx, ext, booking);
  });
}

function requirePending(ext: queries.ExtensionRow) {
  if (ext.status !== 'pending') {
    throw conflict(
      ALREADY_ANSWERED[ext.status] ?? msg`This request for more days was already answered.`,
      'ILLEGAL_STATUS_CHANGE',
    );
  }
}

function lenderOnly(ext: queries.ExtensionRow, userId: string) {
  if (ext.providerId === userId) return;
  throw forbidden(
    ext.borrowerId === userId
      ? msg`Only the lender can answer this request.`
      : msg`You are not part of this reservation.`,
  );
}

/** The lender approves: the end date moves, the extra rental is charged, overlapping requests lose. */
export async function approve(
  deps: ExtensionDeps,
  lender: { id: string; email: string; isVerified: boolean },
  id: string,
): Promise<Extension> {
  emailVerificationService.requireVerified(lender);
  const row = await withLocks(deps, id, async (tx, ext, booking) => {
    lenderOnly(ext, lender.id);
    requirePending(ext);
    requireExtensionStillHeld(ext, nowOf(deps));
    // Paid days more are money for the lender: their account must be able to receive it.
    if (ext.paymentIntentId) await payoutService.requireActive(tx, lender.id);
    if (
      !(EXTENDABLE_STATUSES as readonly string[]).includes(booking.status) ||
      booking.endDate !== ext.previousEndDate
    ) {
      throw conflict(
        msg`The booking changed since the request: it cannot be extended now.`,
        'ILLEGAL_STATUS_CHANGE',
      );
    }
    const extra = extraDays(booking, ext.newEndDate);
    // Days actually booked refuse it; pending requests lose to it.
    if (
      (await queries.otherReservationsOverlapping(tx, booking.itemId, booking.id, extra, BOOKED_STATUSES))
        .length
    ) {
      throw conflict(msg`Those days are booked by someone else now. Decline this request.`, 'DATES_TAKEN');
    }
    await reservationQueries.moveEndDate(tx, booking.id, ext.newEndDate);
    // The return reminders count from the new last day: those sent for the old one may go again.
    await reminderService.forgetReturnReminders(tx, booking.id);
    await queries.setStatus(tx, ext.id, 'approved');
    await notificationService.actedOn(tx, lender.id, booking.id, ['extension_requested']);
    const lenderName = booking.lenderName;
    const borrower = booking.borrowerName;
    const item = booking.itemTitle;
    await notificationService.notify(tx, {
      userId: ext.borrowerId,
      type: 'extension_approved',
      text: () => approvedTextForBorrower(lenderName, item, ext),
      relatedReservationId: booking.id,
      relatedItemId: booking.itemId,
    });
    await notificationService.notify(tx, {
      userId: ext.providerId,
      type: 'extension_approved',
      text: () => approvedTextForLender(borrower, item, ext),
      relatedReservationId: booking.id,
      relatedItemId: booking.itemId,
    });
    if (ext.paymentIntentId) {
      await ledgerService.charge(tx, deps.jobs, {
        reservationId: booking.id,
        paymentIntentId: ext.paymentIntentId,
        amountCents: heldByExtension(ext).amountCents,
        borrowerId: ext.borrowerId,
        paymentDescription: () => paymentWords(item, ext.newEndDate),
        lenderId: ext.providerId,
        // The lender earns the extra rental less the commission; the platform its fee and commission.
        earningCents: ext.rentalCents - ext.lenderCommissionCents,
        earningDescription: () => earningWords(item, borrower, ext.newEndDate),
        serviceFeeCents: ext.serviceFeeCents,
        commissionCents: ext.lenderCommissionCents,
      });
    }
    // Requests for those days can no longer be met: declined, their holds released.
    for (const other of await queries.otherReservationsOverlapping(tx, booking.itemId, booking.id, extra, [
      'pending',
    ])) {
      await declineOverlapping(tx, deps, other, { id: booking.itemId, title: booking.itemTitle });
    }
    return (await queries.findExtension(tx, ext.id))!;
  });
  return toExtension(row, deps.timeZone);
}

/** The lender declines: the hold is released, the booking keeps its end date. */
export async function decline(deps: ExtensionDeps, userId: string, id: string): Promise<Extension> {
  const row = await withLocks(deps, id, async (tx, ext, booking) => {
    lenderOnly(ext, userId);
    requirePending(ext);
    await queries.setStatus(tx, ext.id, 'declined');
    await notificationService.actedOn(tx, userId, booking.id, ['extension_requested']);
    const lender = booking.lenderName;
    const item = booking.itemTitle;
    await notificationService.notify(tx, {
      userId: ext.borrowerId,
      type: 'extension_declined',
      text: () => declinedText(lender, item, booking.endDate, ext),
      relatedReservationId: booking.id,
      relatedItemId: booking.itemId,
    });
    await ledgerService.release(tx, deps.jobs, { ...heldByExtension(ext), purpose: 'decline' });
    return (await queries.findExtension(tx, ext.id))!;
  });
  return toExtension(row, deps.timeZone);
}

/** The borrower takes the request back before the answer. */
export async function cancel(deps: ExtensionDeps, userId: string, id: string): Promise<Extension> {
  const row = await withLocks(deps, id, async (tx, ext, booking) => {
    if (ext.borrowerId !== userId) {
      throw forbidden(
        ext.providerId === userId
          ? msg`Only the borrower can take back this request.`
          : msg`You are not part of this reservation.`,
      );
    }
    requirePending(ext);
    await queries.setStatus(tx, ext.id, 'cancelled');
    const borrower = booking.borrowerName;
    const item = booking.itemTitle;
    await notificationService.notify(tx, {
      userId: ext.providerId,
      type: 'extension_cancelled',
      text: () => cancelledText(borrower, item, ext),
      relatedReservationId: booking.id,
      relatedItemId: booking.itemId,
    });
    await ledgerService.release(tx, deps.jobs, { ...heldByExtension(ext), purpose: 'cancellation' });
    return (await queries.findExtension(tx, ext.id))!;
  });
  return toExtension(row, deps.timeZone);
}

/**
 * Pending requests whose booking's current last day is over, or whose card has been held for
 * AUTHORISATION_ANSWER_DAYS: they lapse, their holds released, both told.
 */
export async function expirePending(deps: ExtensionDeps, now = new Date()): Promise<number> {
  const today = campusToday(deps.timeZone, now).date;
  const heldSince = new Date(now.getTime() - AUTHORISATION_ANSWER_DAYS * 86_400_000);
  let count = 0;
  for (const { id } of await queries.lapsedPending(deps.db, today, heldSince)) {
    const expired = await withLocks(deps, id, async (tx, ext, booking) => {
      if (ext.status !== 'pending') return false;
      await queries.setStatus(tx, ext.id, 'expired');
      const lender = booking.lenderName;
      const borrower = booking.borrowerName;
      const item = booking.itemTitle;
      const held = authorisationLapsed(ext.authorisedAt, now);
      const texts: [string, () => NoticeText][] = [
        [ext.borrowerId, () => expiredTextForBorrower(lender, item, ext, held)],
        [ext.providerId, () => expiredTextForLender(borrower, item, held)],
      ];
      for (const [userId, text] of texts) {
        await notificationService.notify(tx, {
          userId,
          type: 'extension_declined',
          text,
          relatedReservationId: booking.id,
          relatedItemId: booking.itemId,
        });
      }
      await ledgerService.release(tx, deps.jobs, { ...heldByExtension(ext), purpose: 'expiry' });
      return true;
    }).catch((error) => {
      if (error instanceof AppError) return false;
      throw error;
    });
    if (expired) count++;
  }
  return count;
}
