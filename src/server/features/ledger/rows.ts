import type { MessageDescriptor } from '@lingui/core';
import type { BillingKind, BillingStatus } from '#shared/constants.ts';
import { writtenFor } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import * as queries from './queries.ts';

// Billing rows as the ledger's verbs write them, and the words they carry.

/** Words stored for one person: already written, or a message written in their language here. */
export type Words = string | (() => MessageDescriptor);

export const written = (tx: Db, userId: string, words: Words) =>
  typeof words === 'string' ? Promise.resolve(words) : writtenFor(tx, userId, words);

/** A row of the billing history as its writers describe it. */
export interface BillingRecord {
  kind: BillingKind;
  userId: string;
  reservationId: string;
  stripePaymentIntentId: string | null;
  amountCents: number;
  status: BillingStatus;
  description: string;
  paymentMethodType?: string | null;
  paymentMethodLast4?: string | null;
  refundAmountCents?: number | null;
  refundedAt?: Date | null;
  createdAt?: Date;
}

/** Writes the rows that carry an amount (a lender's earning with its first entry); answers their ids. */
export async function recordRows(tx: Db, records: BillingRecord[]): Promise<string[]> {
  const rows = await queries.insertRows(
    tx,
    records.filter((r) => r.amountCents > 0 || (r.refundAmountCents ?? 0) > 0),
  );
  await queries.insertEntries(
    tx,
    rows
      .filter((r) => r.kind === 'earning')
      .map((r) => ({
        lenderId: r.userId,
        reservationId: r.reservationId,
        paymentIntentId: r.stripePaymentIntentId,
        billingId: r.id,
        amountCents:
          r.status === 'refunded' ? r.amountCents - (r.refundAmountCents ?? r.amountCents) : r.amountCents,
        reason: 'rental' as const,
      })),
  );
  return rows.map((r) => r.id);
}
