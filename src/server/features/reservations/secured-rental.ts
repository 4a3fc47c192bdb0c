import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import { earlyReturnRefund } from '#shared/booking/early-return.ts';
import { campusToday } from '#shared/calendar.ts';
import type { RentalPeriod } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { approvedExtensionsOf } from './extensions/with-booking.ts';
import * as queries from './queries.ts';
import { rentalPaymentsOf } from './views.ts';

/**
 * Of one payment of a booking, the most an early return could still give back (decision 056,
 * "Transfers"): a borrow still out may come back today, the earliest day it can, and give back the
 * rental of every full period after it; a borrow no longer out cannot give back more rental (what its
 * return gave back is already out of the lender's earning). The lender's earning cannot drop by more
 * than this, so the rest of it is certain and may be sent before the deposit is settled.
 */
export async function mostAnEarlyReturnTakes(
  tx: Db,
  reservationId: string,
  paymentIntentId: string,
  now: Date,
  timeZone: string,
): Promise<number> {
  const row = await queries.bookingRow(tx, reservationId);
  // Not picked up yet: a cancellation could still give all of it back.
  if (!row || row.status === 'approved' || row.status === 'pending') return Number.MAX_SAFE_INTEGER;
  if (row.status !== 'active') return 0;
  const approved = await approvedExtensionsOf(tx, reservationId);
  const payments = rentalPaymentsOf(row, approved);
  const early = earlyReturnRefund(
    {
      startDate: row.startDate,
      endDate: row.endDate,
      rentalPeriod: row.rentalPeriod as RentalPeriod | null,
      cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
      payments,
    },
    campusToday(timeZone, now).date,
  );
  if (!early) return 0;
  const intents = [row.stripePaymentIntentId, ...approved.map((ext) => ext.paymentIntentId)];
  const index = intents.indexOf(paymentIntentId);
  // A payment the booking does not know as its rental's: nothing of it is taken as certain.
  if (index < 0) return Number.MAX_SAFE_INTEGER;
  return early.refunds[index] ?? 0;
}
