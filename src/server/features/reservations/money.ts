import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import { heldCents, type MoneyBooking } from '#shared/booking/money-plan.ts';

// What a booking's payments hold, in the shape the ledger's verbs take (features/ledger writes the rows
// and steps; decision 045). One home for a reservation's and an extension's payments alike.

/** An authorisation held for a booking (or one of its extensions) and not charged yet. */
export interface Hold {
  reservationId: string;
  paymentIntentId: string | null;
  amountCents: number;
}

/** What a reservation's own payment holds: its deposit, its rental and the service fee on it. */
export function heldBy(row: {
  id: string;
  stripePaymentIntentId: string | null;
  depositCents: number;
  rentalCents: number;
  serviceFeeCents: number;
}): Hold {
  return { reservationId: row.id, paymentIntentId: row.stripePaymentIntentId, amountCents: heldCents(row) };
}

/** The booking as its money plan reads it (src/shared/booking/money-plan.ts); its own payment only. */
export function moneyOf(row: {
  stripePaymentIntentId: string | null;
  rentalCents: number;
  depositCents: number;
  serviceFeeCents: number;
  lenderCommissionCents: number;
  startDate: string;
  cancellationPolicy: string;
}): MoneyBooking {
  return {
    paymentIntentId: row.stripePaymentIntentId,
    rentalCents: row.rentalCents,
    depositCents: row.depositCents,
    serviceFeeCents: row.serviceFeeCents,
    lenderCommissionCents: row.lenderCommissionCents,
    startDate: row.startDate,
    cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
  };
}
