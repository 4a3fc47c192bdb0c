import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { EARNING_REASONS, JOURNAL_ACCOUNTS, JOURNAL_KINDS, PLATFORM_FEE_PARTS } from '#shared/constants.ts';
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

/**
 * The double-entry journal (decision 058): every money movement the platform makes, as a transaction
 * whose lines add up to zero over a small chart of accounts (JOURNAL_ACCOUNTS). Written only by the
 * ledger (features/ledger/journal.ts) when the provider has moved the money; the database refuses an
 * unbalanced transaction and any change or deletion. Bookings, payments and lenders are named by id
 * without foreign keys, so the history outlives them.
 */
export const journalTransactions = pgTable(
  'journal_transactions',
  {
    id: id(),
    /** The order they were written in (several share one database transaction's time). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    reservationId: uuid('reservation_id'),
    paymentIntentId: text('payment_intent_id'),
    /** What made it, once: a payment step ('step:<id>'), a transfer ('transfer:<id>')…; null for deltas. */
    source: text('source').unique(),
    /** A release moves no money: the authorisation it let go, for the record. */
    releasedCents: integer('released_cents'),
    createdAt: createdAt(),
  },
  (t) => [
    check('journal_transactions_kind_check', oneOf(t.kind, JOURNAL_KINDS)),
    index('journal_transactions_reservation_idx').on(t.reservationId),
    index('journal_transactions_intent_idx').on(t.paymentIntentId),
  ],
);

export const journalLines = pgTable(
  'journal_lines',
  {
    id: id(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => journalTransactions.id),
    account: text('account').notNull(),
    /** Whose account: the lender of a lender_payable line, the borrower of a borrower line. */
    personId: uuid('person_id'),
    reservationId: uuid('reservation_id'),
    paymentIntentId: text('payment_intent_id'),
    /** Signed: a debit is positive, a credit negative; a transaction's lines add up to zero. */
    amountCents: integer('amount_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('journal_lines_account_check', oneOf(t.account, JOURNAL_ACCOUNTS)),
    check('journal_lines_amount_check', sql`${t.amountCents} <> 0`),
    index('journal_lines_transaction_idx').on(t.transactionId),
    index('journal_lines_reservation_idx').on(t.reservationId),
    index('journal_lines_person_idx').on(t.personId, t.account),
  ],
);

/** What the journal's reconciliation found wrong with a booking (decision 058), for moderators. */
export const journalFindings = pgTable(
  'journal_findings',
  {
    id: id(),
    reservationId: uuid('reservation_id').notNull(),
    /** captured − refunded − disputed, and transferred − reversed + fees + payable + held. */
    cashCents: integer('cash_cents').notNull(),
    accountedCents: integer('accounted_cents').notNull(),
    /** What disagrees, in plain words. */
    problem: text('problem').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('journal_findings_open_idx').on(t.reservationId).where(sql`${t.resolvedAt} is null`)],
);

/**
 * A receipt e-mail owed to a borrower for a charge or a refund the provider made (decision 058): written
 * in the transaction that recorded the step's success, so there is one per step however often the step
 * was tried; `sent_at` once the mailer took it.
 */
export const receipts = pgTable(
  'receipts',
  {
    stepId: uuid('step_id').primaryKey(),
    borrowerId: uuid('borrower_id').notNull(),
    reservationId: uuid('reservation_id'),
    paymentIntentId: text('payment_intent_id').notNull(),
    kind: text('kind').notNull(),
    purpose: text('purpose').notNull(),
    amountCents: integer('amount_cents').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    check('receipts_kind_check', oneOf(t.kind, ['capture', 'refund'])),
    index('receipts_unsent_idx').on(t.createdAt).where(sql`${t.sentAt} is null`),
  ],
);
