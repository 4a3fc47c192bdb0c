import { borrowerCancellationRefund, type CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import type { Db } from '../../db/client.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import type { ReservationDeps } from './deps.ts';
import { cancelExtensionsOf } from './extensions/with-booking.ts';
import { type LockedRow, roleOf } from './locking.ts';
import { heldBy } from './money.ts';
import { cancellationFeeWords, cancelledRefundWords, cancelledText, policyRefundWords } from './notices.ts';
import * as queries from './queries.ts';

// A cancellation by either party, before or after approval. A borrower's cancellation of a paid booking
// refunds by the policy it was made under; a lender's, or one before approval, gives everything back.
// The deposit always comes back.

export async function cancel(
  tx: Db,
  deps: ReservationDeps,
  userId: string,
  row: LockedRow,
  view: queries.ReservationRow,
) {
  const id = row.id;
  const role = roleOf(row, userId);
  const wasApproved = row.status === 'approved';
  const byPolicy =
    wasApproved && role === 'borrower' && row.stripePaymentIntentId
      ? borrowerCancellationRefund(
          row.cancellationPolicy as CancellationPolicy,
          row,
          new Date(),
          deps.timeZone,
        )
      : null;
  const keptCents = byPolicy?.rentalKeptCents ?? 0;
  await queries.setStatus(tx, id, 'cancelled', { cancelledBy: role as 'borrower' | 'provider' });
  // Its extensions end too (a waiting one released, an approved one given back).
  await cancelExtensionsOf(tx, deps, id);
  const item = view.item.title;
  const actor = role === 'borrower' ? view.borrower.fullName : view.provider.fullName;
  await notificationService.notify(tx, {
    userId: role === 'borrower' ? row.providerId : row.borrowerId,
    type: 'reservation_cancelled',
    text: () => cancelledText(row, { actor, item }, wasApproved, keptCents, row.cancellationPolicy),
    relatedReservationId: id,
    relatedItemId: row.itemId,
  });
  if (!row.stripePaymentIntentId) return;
  if (!wasApproved) {
    await ledgerService.release(tx, deps.jobs, { ...heldBy(row), purpose: 'cancellation' });
    return;
  }
  const totalCents = heldBy(row).amountCents;
  if (keptCents > 0) {
    // The lender keeps part of the rental: the capture stands (it runs first when it has not yet; steps
    // of one payment run in order), then the rest is refunded. The lender's earning becomes what they keep.
    await ledgerService.earn(tx, {
      reservationId: id,
      paymentIntentId: row.stripePaymentIntentId,
      lenderId: row.providerId,
      byCents: keptCents - row.rentalCents,
      reason: 'cancellation_fee',
      description: () => cancellationFeeWords(item, row, row.cancellationPolicy),
    });
    await ledgerService.refund(tx, deps.jobs, {
      reservationId: id,
      paymentIntentId: row.stripePaymentIntentId,
      borrowerId: row.borrowerId,
      purpose: 'policy',
      amountCents: totalCents - keptCents,
      description: () => policyRefundWords(item, row, row.cancellationPolicy),
    });
    return;
  }
  await ledgerService.giveBack(tx, deps.jobs, {
    reservationId: id,
    borrowerId: row.borrowerId,
    paymentIntentId: row.stripePaymentIntentId,
    amountCents: totalCents,
    description: () => cancelledRefundWords(item, row),
  });
}
