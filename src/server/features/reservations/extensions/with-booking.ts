import type { Db } from '../../../db/client.ts';
import { ledgerService } from '../../ledger/service.ts';
import { notificationService } from '../../notifications/service.ts';
import type { ExtensionDeps } from '../deps.ts';
import type { Hold } from '../money.ts';
import { cancelledRefundWords, overlapDeclinedText } from './notices.ts';
import * as queries from './queries.ts';

// What happens to a booking's requests for more days when the booking itself changes: another booking
// approved for their days, the booking cancelled or ended, an early return reading what they paid for.

/**
 * What an extension's own payment holds: its extra rental and the service fee on it (the booking's
 * deposit is on the booking's).
 */
export function heldByExtension(ext: queries.ExtensionRow): Hold {
  return {
    reservationId: ext.reservationId,
    paymentIntentId: ext.paymentIntentId,
    amountCents: ext.rentalCents + ext.serviceFeeCents,
  };
}

/**
 * Inside a reservation's approval (under the item's lock): pending extensions of other bookings that
 * want these days can no longer be met, so they are declined and their holds released.
 */
export async function declineOverlappingExtensions(
  tx: Db,
  deps: ExtensionDeps,
  booking: { id: string; itemId: string; startDate: string; endDate: string },
): Promise<void> {
  for (const ext of await queries.pendingOverlapping(tx, booking.itemId, booking, booking.id)) {
    await queries.setStatus(tx, ext.id, 'declined');
    const owner = await queries.findBooking(tx, ext.reservationId);
    const item = owner?.itemTitle;
    await notificationService.notify(tx, {
      userId: ext.borrowerId,
      type: 'extension_declined',
      text: () => overlapDeclinedText(item, ext),
      relatedReservationId: ext.reservationId,
      relatedItemId: ext.itemId,
    });
    await ledgerService.release(tx, deps.jobs, { ...heldByExtension(ext), purpose: 'overlap' });
  }
}

/** Inside a reservation's return or completion (under its locks): a pending extension ends with it. */
export async function endExtensionsOf(tx: Db, deps: ExtensionDeps, reservationId: string) {
  for (const ext of await queries.extensionsOfReservation(tx, reservationId, ['pending'])) {
    await queries.setStatus(tx, ext.id, 'cancelled');
    await ledgerService.release(tx, deps.jobs, { ...heldByExtension(ext), purpose: 'cancellation' });
  }
}

/**
 * Inside a reservation's cancellation (under its locks): a pending extension ends with it (its hold
 * released), and an approved extension's extra rental is given back in full, as the booking's is.
 */
export async function cancelExtensionsOf(tx: Db, deps: ExtensionDeps, reservationId: string) {
  await endExtensionsOf(tx, deps, reservationId);
  for (const ext of await queries.extensionsOfReservation(tx, reservationId, ['approved'])) {
    if (!ext.paymentIntentId) continue;
    await ledgerService.giveBack(tx, deps.jobs, {
      reservationId,
      borrowerId: ext.borrowerId,
      paymentIntentId: ext.paymentIntentId,
      amountCents: heldByExtension(ext).amountCents,
      description: () => cancelledRefundWords(ext.newEndDate),
    });
  }
}

/**
 * Decision 034: an early return (under the booking's locks) gives back unused days an approved
 * extension paid for too: its payments, each with the end it moved and its own payment intent.
 */
export function approvedExtensionsOf(tx: Db, reservationId: string) {
  return queries.extensionsOfReservation(tx, reservationId, ['approved']);
}
