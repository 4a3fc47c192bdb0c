import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { PAYOUT_ACCOUNT_STATUSES, PAYOUT_PURPOSES, PAYOUT_TRANSFER_STATUSES } from '#shared/constants.ts';
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
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
    transferGroup: text('transfer_group').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    providerTransferId: text('provider_transfer_id').unique(),
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
    unique('payout_transfers_one_per_purpose').on(t.paymentIntentId, t.purpose),
    index('payout_transfers_due_idx').on(t.status, t.releaseAt),
    index('payout_transfers_lender_idx').on(t.lenderId, t.createdAt),
    index('payout_transfers_reservation_idx').on(t.reservationId),
  ],
);
