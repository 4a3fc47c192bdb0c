import type { MessageDescriptor } from '@lingui/core';
import type { BillingKind, BillingStatus } from '#shared/constants.ts';
import type { Locale } from '#shared/i18n.ts';
import { writtenFor } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { type StoredWording, storedWordingOf } from '../../wordings.ts';
import { journal } from './journal.ts';
import * as queries from './queries.ts';

// Billing rows as the ledger's verbs write them, and the words they carry.

/** Words stored for one person: already written, or a message written in their language here. */
export type Words = string | (() => MessageDescriptor);

/**
 * The description to store: written in the person's language, with its wording (wordings.ts) when one
 * made it, so the billing history writes it again in whatever language it is read in.
 */
export async function written(
  tx: Db,
  userId: string,
  words: Words,
  locale?: Locale,
): Promise<queries.Described> {
  if (typeof words === 'string')
    return { description: words, descriptionKind: null, descriptionValues: null };
  const made: { wording: StoredWording | null } = { wording: null };
  const description = await writtenFor(
    tx,
    userId,
    () => {
      const message = words();
      made.wording = storedWordingOf(message);
      return message;
    },
    locale,
  );
  return {
    description,
    descriptionKind: made.wording?.kind ?? null,
    descriptionValues: made.wording?.values ?? null,
  };
}

/** A row of the billing history as its writers describe it. */
export interface BillingRecord {
  kind: BillingKind;
  userId: string;
  reservationId: string;
  stripePaymentIntentId: string | null;
  amountCents: number;
  status: BillingStatus;
  description: string;
  descriptionKind?: string | null;
  descriptionValues?: unknown;
  paymentMethodType?: string | null;
  paymentMethodLast4?: string | null;
  refundAmountCents?: number | null;
  refundedAt?: Date | null;
  createdAt?: Date;
}

/** Writes the rows that carry an amount (a lender's earning with its first entry, a row already done with its journal); answers their ids. */
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
  // Rows written as already done are money the provider moved: journalled with them.
  await journal.rowsRecorded(tx, rows);
  return rows.map((r) => r.id);
}
