import type { PlatformFeePart } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { journal } from './journal.ts';
import * as queries from './queries.ts';

// The platform's share of each payment (decision 055): the borrower's service fee and the commission on
// the lender's rental, as an append-only history of entries beside the lender's earnings. With the
// refunds, the earnings and the deposit still held, it accounts for every cent a payment charged.

/** The platform's share of a payment grows (charged) or shrinks (given back with the rental). */
export async function takeShare(
  tx: Db,
  what: { reservationId: string; paymentIntentId: string; part: PlatformFeePart; byCents: number },
): Promise<void> {
  await queries.insertPlatformEntries(tx, [
    {
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      part: what.part,
      amountCents: what.byCents,
    },
  ]);
  // Once the payment is charged, the journal's fees follow the share (before, nothing is posted).
  await journal.earningsChanged(tx, what.paymentIntentId);
}

/**
 * A payment given back whole (its charge called off, or refunded in full): whatever share of it the
 * platform still had ends, an entry per part taking it back.
 */
export async function dropShare(
  tx: Db,
  what: { reservationId: string | null; paymentIntentId: string },
): Promise<void> {
  const share = await queries.platformShareOf(tx, what.paymentIntentId);
  await queries.insertPlatformEntries(
    tx,
    share.map((s) => ({
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      part: s.part,
      amountCents: -s.cents,
    })),
  );
  await journal.earningsChanged(tx, what.paymentIntentId);
}
