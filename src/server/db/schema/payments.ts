import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  BILLING_KINDS,
  BILLING_STATUSES,
  PAYMENT_STEP_KINDS,
  PAYMENT_STEP_PURPOSES,
  PAYMENT_STEP_STATUSES,
} from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

export const savedPaymentMethods = pgTable(
  'saved_payment_methods',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripePaymentMethodId: text('stripe_payment_method_id').notNull().unique(),
    type: text('type').notNull().default('card'),
    brand: text('brand'),
    last4: text('last4'),
    expiryMonth: smallint('expiry_month'),
    expiryYear: smallint('expiry_year'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'saved_payment_methods_expiry_check',
      sql`${t.expiryMonth} is null or ${t.expiryMonth} between 1 and 12`,
    ),
    index('saved_payment_methods_user_idx').on(t.userId, t.createdAt.desc()),
    // At most one default card per user.
    uniqueIndex('saved_payment_methods_one_default').on(t.userId).where(sql`${t.isDefault}`),
  ],
);

export const billingHistory = pgTable(
  'billing_history',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Spec §3: kept when the reservation goes, with the link cleared. */
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').notNull(),
    /** payment (the borrower's: held, charged or released), refund (of charged money), earning (the lender's). */
    kind: text('kind').notNull().default('payment'),
    description: text('description').notNull(),
    /** How the description was written (src/server/wordings.ts), to write it in the reader's language. */
    descriptionKind: text('description_kind'),
    descriptionValues: jsonb('description_values'),
    paymentMethodType: text('payment_method_type'),
    paymentMethodLast4: text('payment_method_last4'),
    refundAmountCents: integer('refund_amount_cents'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The provider's id of this refund, once it is made. */
    providerRefundId: text('provider_refund_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check('billing_history_status_check', oneOf(t.status, BILLING_STATUSES)),
    check('billing_history_kind_check', oneOf(t.kind, BILLING_KINDS)),
    check(
      'billing_history_amounts_check',
      sql`${t.amountCents} >= 0 and (${t.refundAmountCents} is null or ${t.refundAmountCents} >= 0)`,
    ),
    index('billing_history_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('billing_history_reservation_idx').on(t.reservationId),
  ],
);

/**
 * Every payment intent CampusLoop asked the provider for, with what it was for (decision 012): a
 * request must match the item, dates and amount it was authorised for, one intent pays for one
 * reservation, and an authorisation nobody turned into a request is found and released.
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    /** The provider's id (pi_…). */
    id: text('id').primaryKey(),
    borrowerId: uuid('borrower_id').references(() => users.id, { onDelete: 'set null' }),
    itemId: uuid('item_id').references(() => items.id, { onDelete: 'set null' }),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    rentalCents: integer('rental_cents').notNull(),
    depositCents: integer('deposit_cents').notNull(),
    /** Decision 055: the service fee the authorisation includes (0 on intents made before the fee). */
    serviceFeeCents: integer('service_fee_cents').notNull().default(0),
    amountCents: integer('amount_cents').notNull(),
    /**
     * An extension's authorisation names the booking it extends here (item_id stays
     * null, so it can never pay for a new reservation); start and end are the booking's old and new end.
     */
    extensionOf: uuid('extension_of').references(() => reservations.id, { onDelete: 'set null' }),
    /** The reservation it paid for; at most one. */
    reservationId: uuid('reservation_id')
      .unique()
      .references(() => reservations.id, { onDelete: 'set null' }),
    /** open (no reservation yet), used (a reservation holds it), abandoned (released by the sweeper). */
    status: text('status').notNull().default('open'),
    /** The provider's status as last heard (a webhook or a step), for moderators. */
    providerStatus: text('provider_status'),
    /** The provider's message when a card confirmation failed (payment_intent.payment_failed). */
    lastError: text('last_error'),
    /** When the reconciliation job last compared it with the provider. */
    reconciledAt: timestamp('reconciled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payment_intents_status_check', oneOf(t.status, ['open', 'used', 'abandoned'])),
    check(
      'payment_intents_amounts_check',
      sql`${t.rentalCents} >= 0 and ${t.depositCents} >= 0 and ${t.serviceFeeCents} >= 0 and ${t.amountCents} = ${t.rentalCents} + ${t.serviceFeeCents} + ${t.depositCents}`,
    ),
    // The sweeper: open intents by age.
    index('payment_intents_open_created_idx').on(t.createdAt).where(sql`${t.status} = 'open'`),
    // The reconciliation job: used intents, least recently compared first.
    index('payment_intents_used_reconciled_idx')
      .on(t.reconciledAt.asc().nullsFirst())
      .where(sql`${t.status} = 'used'`),
  ],
);

/**
 * The payment outbox (decision 012): each call to the provider that a status change needs, written in
 * that change's transaction and run afterwards by the job queue, with retries. Steps of one intent
 * run in `seq` order.
 */
export const paymentSteps = pgTable(
  'payment_steps',
  {
    id: id(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    paymentIntentId: text('payment_intent_id')
      .notNull()
      .references(() => paymentIntents.id),
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    purpose: text('purpose').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** The refund row this step settles when it succeeds. */
    billingId: uuid('billing_id').references(() => billingHistory.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** A runner holds the step until then; past it, a crashed runner's step may be taken again. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Not run before then (an off-session authorisation due close to the booking's start; null: now). */
    notBefore: timestamp('not_before', { withTimezone: true }),
    /** The provider's id of what the step made (a refund's re_…). */
    providerRef: text('provider_ref'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    check('payment_steps_kind_check', oneOf(t.kind, PAYMENT_STEP_KINDS)),
    check('payment_steps_purpose_check', oneOf(t.purpose, PAYMENT_STEP_PURPOSES)),
    check('payment_steps_status_check', oneOf(t.status, PAYMENT_STEP_STATUSES)),
    check('payment_steps_amount_check', sql`${t.amountCents} >= 0`),
    index('payment_steps_intent_seq_idx').on(t.paymentIntentId, t.seq),
    // What is left to do, and what moderators must look at.
    index('payment_steps_open_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} in ('pending', 'running', 'failed')`),
  ],
);

/** What the reconciliation job found: our billing rows and the provider disagree about an intent. */
export const paymentMismatches = pgTable(
  'payment_mismatches',
  {
    id: id(),
    paymentIntentId: text('payment_intent_id')
      .notNull()
      .references(() => paymentIntents.id),
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    /** Charged minus refunded, as our billing rows say and as the provider says. */
    billingNetCents: integer('billing_net_cents').notNull(),
    providerNetCents: integer('provider_net_cents').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [
    // One open finding per intent; the job updates it rather than piling up copies.
    uniqueIndex('payment_mismatches_open_idx').on(t.paymentIntentId).where(sql`${t.resolvedAt} is null`),
  ],
);
