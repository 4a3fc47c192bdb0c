import { msg, plural } from '@lingui/core/macro';
import { LIMITS } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest } from '../../errors.ts';
import { notificationService } from '../notifications/service.ts';
import { payoutService } from '../payouts/service.ts';
import { nowOf, type ReservationDeps } from './deps.ts';
import { type LockedRow, newPickupCode, roleOf } from './locking.ts';
import { newPickupCodeText, startedText } from './notices.ts';
import * as queries from './queries.ts';

/** PAYOUT_DELAY_HOURS' default, for callers without the setting. */
const DEFAULT_PAYOUT_DELAY_MS = 24 * 3_600_000;

// The pickup ('Picked Up', on either side): the lender types the code the borrower shows, so the
// item goes to the right person and the handover proves they met.

/**
 * A wrong code counts; at the limit the borrower gets a new code, so guessing a million codes five at a
 * time is not a way to take someone else's item. Answers the refusal to send after the commit.
 */
async function wrongPickupCode(tx: Db, row: LockedRow, view: queries.ReservationRow): Promise<AppError> {
  const attempts = await queries.countWrongPickupCode(tx, row.id);
  if (attempts < LIMITS.pickupCodeAttempts) {
    const left = LIMITS.pickupCodeAttempts - attempts;
    const message = msg`That pickup code is not right. Ask the borrower to show it again (${plural(left, { one: '# try', other: '# tries' })} left).`;
    return badRequest(message, [{ path: 'pickupCode', message }]);
  }
  await queries.reissuePickupCode(tx, row.id, newPickupCode());
  const item = view.item.title;
  await notificationService.notify(tx, {
    userId: row.borrowerId,
    type: 'system',
    text: () => newPickupCodeText(item),
    relatedReservationId: row.id,
    relatedItemId: row.itemId,
  });
  const message = msg`Too many wrong codes: the borrower has been given a new pickup code. Ask them to show it in My Reservations.`;
  return new AppError(429, 'PICKUP_CODE_REISSUED', message, [{ path: 'pickupCode', message }]);
}

/** The item changed hands (approved to active); a wrong code is answered after the commit. */
export async function pickUp(
  tx: Db,
  deps: ReservationDeps,
  userId: string,
  row: LockedRow,
  view: queries.ReservationRow,
  pickupCode: string | undefined,
): Promise<AppError | undefined> {
  const role = roleOf(row, userId);
  // The lender types the code the borrower shows, so the item goes to the right person.
  if (role === 'provider' && pickupCode !== row.pickupCode) {
    return wrongPickupCode(tx, row, view);
  }
  // Pickup photos may follow for a while (decision 033): counted from here.
  const now = nowOf(deps);
  await queries.setStatus(tx, row.id, 'active', { pickedUpAt: now });
  // The rental no early return can take back goes to the lender after the payout delay (decision 056).
  if (row.stripePaymentIntentId) {
    await payoutService.scheduleTransfers(tx, deps.jobs, {
      reservationId: row.id,
      lenderId: row.providerId,
      purpose: 'rental_secured',
      releaseAt: new Date(now.getTime() + (deps.payoutDelayMs ?? DEFAULT_PAYOUT_DELAY_MS)),
      now,
    });
  }
  const byBorrower = role === 'borrower';
  const actor = byBorrower ? view.borrower.fullName : view.provider.fullName;
  const item = view.item.title;
  await notificationService.notify(tx, {
    userId: byBorrower ? row.providerId : row.borrowerId,
    type: 'reservation_started',
    text: () => startedText(row.endDate, byBorrower, actor, item),
    relatedReservationId: row.id,
    relatedItemId: row.itemId,
  });
  return undefined;
}
