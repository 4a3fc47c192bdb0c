import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { EARNING_REASONS, PLATFORM_FEE_PARTS } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { billingHistory, paymentSteps } from './payments.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// The ledger's own tables (decision 045). Only src/server/features/ledger writes them.

/**
 * The lender's earnings as a history that only grows: each change of what a lender earns on a payment
 * is an entry that adds or subtracts (the rental when a booking is approved, less after an early return,
 * more when they keep part of a deposit, all of it taken back when the payment is given back). A
 * lender's figure, or a booking's, is the sum of its entries; nothing updates or deletes one. The
 * lender's billing row of the payment (kind 'earning') is the statement line that shows the figure.
 */
export const earningEntries = pgTable(
  'earning_entries',
  {
    id: id(),
    lenderId: uuid('lender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Kept when the reservation goes, with the link cleared (as billing rows are). */
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    /** The payment the earning is of (the booking's own, or an extension's). */
    paymentIntentId: text('payment_intent_id'),
    /** The statement line (billing row) the entry changed; not a foreign key, so the entry outlives it. */
    billingId: uuid('billing_id'),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('earning_entries_reason_check', oneOf(t.reason, EARNING_REASONS)),
    check('earning_entries_amount_check', sql`${t.amountCents} <> 0`),
    index('earning_entries_lender_idx').on(t.lenderId, t.createdAt),
    index('earning_entries_reservation_idx').on(t.reservationId),
  ],
);

/**
 * The platform's share of each payment as a history that only grows (decision 055): the borrower's
 * service fee and the commission on the lender's rental when a payment is charged, less the part given
 * back with the rental (a cancellation, an early return, the payment given back whole). The platform's
 * figure on a payment is the sum of its entries; with the refunds, the lender's earnings and the deposit
 * still held, it accounts for every cent charged.
 */
export const platformFeeEntries = pgTable(
  'platform_fee_entries',
  {
    id: id(),
    /** Kept when the reservation goes, with the link cleared (as earning entries are). */
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    /** The payment the share is of (the booking's own, or an extension's). */
    paymentIntentId: text('payment_intent_id').notNull(),
    part: text('part').notNull(),
    amountCents: integer('amount_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('platform_fee_entries_part_check', oneOf(t.part, PLATFORM_FEE_PARTS)),
    check('platform_fee_entries_amount_check', sql`${t.amountCents} <> 0`),
    index('platform_fee_entries_payment_idx').on(t.paymentIntentId),
    index('platform_fee_entries_created_idx').on(t.createdAt),
  ],
);

/**
 * Which billing rows a payment step settles, recorded by the ledger when it plans the step (a capture:
 * the payment and the earning; a release: the payment; a refund: its refund row, and the earning when
 * the payment is given back whole). The runner settles exactly these, without working them out again.
 */
export const paymentStepRows = pgTable(
  'payment_step_rows',
  {
    stepId: uuid('step_id')
      .notNull()
      .references(() => paymentSteps.id, { onDelete: 'cascade' }),
    billingId: uuid('billing_id')
      .notNull()
      .references(() => billingHistory.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.stepId, t.billingId] }),
    index('payment_step_rows_billing_idx').on(t.billingId),
  ],
);
