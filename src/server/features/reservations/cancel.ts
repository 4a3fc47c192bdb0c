import { cancellationKeptCents, moneyPlan } from '#shared/booking/money-plan.ts';
import type { Db } from '../../db/client.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import type { ReservationDeps } from './deps.ts';
import { cancelExtensionsOf } from './extensions/with-booking.ts';
import { type LockedRow, roleOf } from './locking.ts';
import { moneyOf } from './money.ts';
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
  const role = roleOf(row, userId) as 'borrower' | 'provider';
  const wasApproved = row.status === 'approved';
  const booking = moneyOf(row);
  const event = {
    type: 'cancel',
    by: role,
    approved: wasApproved,
    at: new Date(),
    timeZone: deps.timeZone,
  } as const;
  const keptCents = cancellationKeptCents(booking, event);
  await queries.setStatus(tx, id, 'cancelled', { cancelledBy: role });
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
  // The lender keeping part of the rental: the capture stands (it runs first when it has not yet; steps
  // of one payment run in order), the rest is refunded and the lender's earning becomes what they keep.
  // Otherwise an approved payment is given back whole, and a request's hold released.
  await ledgerService.carryOut(
    tx,
    deps.jobs,
    { reservationId: id, borrowerId: row.borrowerId, lenderId: row.providerId },
    moneyPlan(booking, event),
    (movement) => {
      if (movement.kind === 'earn') return () => cancellationFeeWords(item, row, row.cancellationPolicy);
      if (movement.kind === 'refund') return () => policyRefundWords(item, row, row.cancellationPolicy);
      return () => cancelledRefundWords(item, row);
    },
  );
}
