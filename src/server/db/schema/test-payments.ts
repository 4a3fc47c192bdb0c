import { boolean, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

// The built-in test payment provider's own state (adapters/payments/test-provider.ts): it mimics
// Stripe's objects so the whole money flow runs, and is tested, with no network.

export const testPaymentIntents = pgTable('test_payment_intents', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull(),
  status: text('status').notNull(),
  amountCents: integer('amount_cents').notNull(),
  amountReceivedCents: integer('amount_received_cents').notNull().default(0),
  amountRefundedCents: integer('amount_refunded_cents').notNull().default(0),
  currency: text('currency').notNull().default('usd'),
  customerId: text('customer_id'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  /** Brand, last 4 and expiry of the card it was confirmed with. */
  card: jsonb('card').$type<{
    type: string;
    brand: string;
    last4: string;
    expiryMonth: number;
    expiryYear: number;
  }>(),
  lastError: text('last_error'),
  /** Confirmed with Stripe's dispute test card: a dispute opens right after the capture. */
  disputeOnCapture: boolean('dispute_on_capture').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Card disputes of the test provider, shaped like Stripe's (its balance transactions as two sums). */
export const testDisputes = pgTable('test_disputes', {
  id: text('id').primaryKey(),
  paymentIntentId: text('payment_intent_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull().default('usd'),
  reason: text('reason').notNull(),
  status: text('status').notNull(),
  evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
  withdrawnCents: integer('withdrawn_cents').notNull().default(0),
  reinstatedCents: integer('reinstated_cents').notNull().default(0),
  feeCents: integer('fee_cents').notNull().default(0),
  evidence: jsonb('evidence').$type<Record<string, string>>().notNull().default({}),
  submissionCount: integer('submission_count').notNull().default(0),
  createdAt: createdAt(),
});

export const testSetupIntents = pgTable('test_setup_intents', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull(),
  customerId: text('customer_id').notNull(),
  status: text('status').notNull(),
  paymentMethodId: text('payment_method_id'),
  createdAt: createdAt(),
});

export const testPaymentMethods = pgTable('test_payment_methods', {
  id: text('id').primaryKey(),
  customerId: text('customer_id'),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expiryMonth: smallint('expiry_month').notNull(),
  expiryYear: smallint('expiry_year').notNull(),
  detached: timestamp('detached_at', { withTimezone: true }),
  /**
   * What an off-session payment with it does, as Stripe's test cards: 'ok', 'authenticate' (3184: the
   * bank asks every time), or 'decline' (0341: attaches, then every charge is declined).
   */
  offSession: text('off_session').notNull().default('ok'),
  createdAt: createdAt(),
});

/** Results of money-moving calls by idempotency key: a retried call answers the first result. */
export const testIdempotency = pgTable('test_idempotency', {
  key: text('key').primaryKey(),
  result: jsonb('result').notNull(),
  createdAt: createdAt(),
});

/** Provider webhook events already handled (Stripe retries deliveries; each is applied once). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The test provider's Express accounts. `state` is where its onboarding page left it: 'onboarding' (the
 * form not finished), 'complete', 'needs_information' (verification asks for more), 'rejected'.
 */
export const testConnectedAccounts = pgTable('test_connected_accounts', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  email: text('email').notNull(),
  country: text('country').notNull(),
  state: text('state').notNull().default('onboarding'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The test provider's transfers to connected accounts; funds are pending until `available_at`. */
export const testTransfers = pgTable('test_transfers', {
  id: text('id').primaryKey(),
  amountCents: integer('amount_cents').notNull(),
  amountReversedCents: integer('amount_reversed_cents').notNull().default(0),
  currency: text('currency').notNull(),
  destination: text('destination').notNull(),
  sourceTransaction: text('source_transaction'),
  transferGroup: text('transfer_group'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  availableAt: timestamp('available_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * The test provider's bank payouts of connected accounts: once a day every account's available balance
 * goes to its (pretend) bank, paid at once (decision 061).
 */
export const testPayouts = pgTable('test_payouts', {
  id: text('id').primaryKey(),
  destination: text('destination').notNull(),
  amountCents: integer('amount_cents').notNull(),
  status: text('status').notNull(),
  arrivalAt: timestamp('arrival_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});
