import { heldCents } from '#shared/booking/money-plan.ts';

// What a booking's payments hold, in the shape the ledger's verbs take (features/ledger writes the rows
// and steps; decision 045). One home for a reservation's and an extension's payments alike.

/** An authorisation held for a booking (or one of its extensions) and not charged yet. */
export interface Hold {
  reservationId: string;
  paymentIntentId: string | null;
  amountCents: number;
}

/** What a reservation's own payment holds: its deposit and its rental. */
export function heldBy(row: {
  id: string;
  stripePaymentIntentId: string | null;
  depositCents: number;
  rentalCents: number;
}): Hold {
  return { reservationId: row.id, paymentIntentId: row.stripePaymentIntentId, amountCents: heldCents(row) };
}
