import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BILLING_STATUSES } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
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
    description: text('description').notNull(),
    paymentMethodType: text('payment_method_type'),
    paymentMethodLast4: text('payment_method_last4'),
    refundAmountCents: integer('refund_amount_cents'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('billing_history_status_check', oneOf(t.status, BILLING_STATUSES)),
    check(
      'billing_history_amounts_check',
      sql`${t.amountCents} >= 0 and (${t.refundAmountCents} is null or ${t.refundAmountCents} >= 0)`,
    ),
    index('billing_history_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('billing_history_reservation_idx').on(t.reservationId),
  ],
);
