import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import {
  BANK_PAYOUT_STATUSES,
  PAYOUT_ACCOUNT_STATUSES,
  PAYOUT_PURPOSES,
  PAYOUT_REVERSAL_REASONS,
  PAYOUT_REVERSAL_STATUSES,
  PAYOUT_TRANSFER_STATUSES,
} from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// Lenders paid through Stripe Connect (decision 056). Only src/server/features/payouts writes these.

/**
 * A lender's connected account (one per person), and its status as last read from the provider: the
 * approval rule and the Earnings page read it here, and every change is read from the provider first.
 */
export const connectedAccounts = pgTable(
  'connected_accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull().unique(),
    status: text('status').notNull(),
    /** What the provider asks for still (requirements.currently_due with past_due). */
    requirementsDue: jsonb('requirements_due').$type<string[]>().notNull().default([]),
    /** The lender disconnected the platform from their account: nothing more can be sent to it. */
    deauthorisedAt: timestamp('deauthorised_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('connected_accounts_status_check', oneOf(t.status, PAYOUT_ACCOUNT_STATUSES))],
);

/**
 * A lender's accounts that were disconnected (deauthorised) and replaced by a new one when they set
 * payouts up again: kept for history, since transfers sent to them and their bank payouts name them.
 */
export const formerConnectedAccounts = pgTable(
  'former_connected_accounts',
  {
    accountId: text('account_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deauthorisedAt: timestamp('deauthorised_at', { withTimezone: true }),
    /** When the account was made (its row in connected_accounts). */
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('former_connected_accounts_user_idx').on(t.userId)],
);

/**
 * The transfer outbox: one row per transfer a booking's event schedules (per payment and purpose, so a
 * second event that would schedule the same one finds it). Its amount is decided when it is sent, from
 * the lender's earning entries less what was already transferred; the provider's transfer is looked up
 * by its group and idempotency key before one is made.
 */
export const payoutTransfers = pgTable(
  'payout_transfers',
  {
    id: id(),
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    lenderId: uuid('lender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The payment whose charge the money comes from (source_transaction). */
    paymentIntentId: text('payment_intent_id').notNull(),
    purpose: text('purpose').notNull(),
    status: text('status').notNull().default('scheduled'),
    /** Null until sent: then what was sent. */
    amountCents: integer('amount_cents'),
    reversedCents: integer('reversed_cents').notNull().default(0),
    /** What the lender owed (a receivable) taken from this transfer before it went (decision 061). */
    nettedCents: integer('netted_cents').notNull().default(0),
    /**
     * Of a reversal decided against this transfer, what the lender's balance could not cover: it became
     * a receivable instead of being taken back (decision 061).
     */
    owedCents: integer('owed_cents').notNull().default(0),
    /** When its money became available in the lender's balance at the provider (null: not known). */
    availableAt: timestamp('available_at', { withTimezone: true }),
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
    transferGroup: text('transfer_group').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    providerTransferId: text('provider_transfer_id').unique(),
    /**
     * The connected account it was claimed for (set when a runner holds it): a lender may replace a
     * disconnected account, and what was sent stays the old account's.
     */
    destinationAccountId: text('destination_account_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** A runner holds it until then (a crashed runner's claim runs out). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payout_transfers_purpose_check', oneOf(t.purpose, PAYOUT_PURPOSES)),
    check('payout_transfers_status_check', oneOf(t.status, PAYOUT_TRANSFER_STATUSES)),
    check('payout_transfers_amount_check', sql`${t.amountCents} is null or ${t.amountCents} > 0`),
    check(
      'payout_transfers_reversed_check',
      sql`${t.reversedCents} >= 0 and ${t.reversedCents} <= coalesce(${t.amountCents}, 0)`,
    ),
    check(
      'payout_transfers_netted_check',
      sql`${t.nettedCents} >= 0 and ${t.owedCents} >= 0 and ${t.reversedCents} + ${t.owedCents} <= coalesce(${t.amountCents}, 0)`,
    ),
    unique('payout_transfers_one_per_purpose').on(t.paymentIntentId, t.purpose),
    index('payout_transfers_due_idx').on(t.status, t.releaseAt),
    index('payout_transfers_lender_idx').on(t.lenderId, t.createdAt),
    index('payout_transfers_reservation_idx').on(t.reservationId),
  ],
);

/**
 * The reversal outbox (decision 061): part of a sent transfer to take back from the lender's account,
 * decided under the payment's lock, made by a job with an idempotency key after looking the transfer up.
 */
export const payoutReversals = pgTable(
  'payout_reversals',
  {
    id: id(),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => payoutTransfers.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    /** The lost card dispute a lender was found at fault for. */
    disputeId: uuid('dispute_id'),
    /** What was decided to take back; what the balance could not cover is `owed_cents` instead. */
    amountCents: integer('amount_cents').notNull(),
    reversedCents: integer('reversed_cents').notNull().default(0),
    owedCents: integer('owed_cents').notNull().default(0),
    status: text('status').notNull().default('scheduled'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    providerReversalId: text('provider_reversal_id').unique(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payout_reversals_reason_check', oneOf(t.reason, PAYOUT_REVERSAL_REASONS)),
    check('payout_reversals_status_check', oneOf(t.status, PAYOUT_REVERSAL_STATUSES)),
    check(
      'payout_reversals_amount_check',
      sql`${t.amountCents} > 0 and ${t.reversedCents} >= 0 and ${t.owedCents} >= 0 and ${t.reversedCents} + ${t.owedCents} <= ${t.amountCents}`,
    ),
    index('payout_reversals_transfer_idx').on(t.transferId),
    index('payout_reversals_status_idx').on(t.status),
  ],
);

/**
 * A lender's bank payouts, as the provider last reported them (Connect payout events, read again from
 * the provider): a transfer whose money was available before a paid payout arrived is paid to the bank.
 */
export const bankPayouts = pgTable(
  'bank_payouts',
  {
    /** The provider's payout id. */
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    lenderId: uuid('lender_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status').notNull(),
    /** When it reaches (or reached) the bank. */
    arrivalAt: timestamp('arrival_at', { withTimezone: true }).notNull(),
    failureMessage: text('failure_message'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('bank_payouts_status_check', oneOf(t.status, BANK_PAYOUT_STATUSES)),
    index('bank_payouts_account_idx').on(t.accountId, t.status, t.arrivalAt),
  ],
);
