import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { EXTENSION_STATUSES } from '#shared/booking/extensions.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// Decision 031: a borrower's request for more days on a booking. Its own record, not a
// reservation status: the booking stays approved or active while the lender decides, and on approval
// only its end date moves. A paid extension holds its own card authorisation, for the extra rental only.

export const reservationExtensions = pgTable(
  'reservation_extensions',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    borrowerId: uuid('borrower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The booking's end date when asked: the extension adds the days after it. */
    previousEndDate: date('previous_end_date').notNull(),
    newEndDate: date('new_end_date').notNull(),
    rentalCents: integer('rental_cents').notNull().default(0),
    /** Decision 055: the service fee on the extra rental and the commission on it, at the rates of its request. */
    serviceFeeCents: integer('service_fee_cents').notNull().default(0),
    serviceFeePercent: numeric('service_fee_percent', { precision: 5, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    lenderCommissionCents: integer('lender_commission_cents').notNull().default(0),
    lenderCommissionPercent: numeric('lender_commission_percent', { precision: 5, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    /** The authorisation of the extra rental (null when nothing is charged). */
    paymentIntentId: text('payment_intent_id'),
    /** When the extra rental was authorised (no later than this): a pending request ends before it lapses (decision 057). */
    authorisedAt: timestamp('authorised_at', { withTimezone: true }),
    /** When the lender was reminded that the request lapses soon (sent once; decision 057). */
    lapseRemindedAt: timestamp('lapse_reminded_at', { withTimezone: true }),
    status: text('status').notNull().default('pending'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reservation_extensions_status_check', oneOf(t.status, EXTENSION_STATUSES)),
    check('reservation_extensions_dates_check', sql`${t.newEndDate} > ${t.previousEndDate}`),
    check(
      'reservation_extensions_amount_check',
      sql`${t.rentalCents} >= 0 and ${t.serviceFeeCents} >= 0 and ${t.lenderCommissionCents} >= 0 and ${t.lenderCommissionCents} <= ${t.rentalCents}`,
    ),
    // One open request per booking (two at once: the second is a 409).
    uniqueIndex('reservation_extensions_one_pending').on(t.reservationId).where(sql`${t.status} = 'pending'`),
    // One payment, one extension.
    uniqueIndex('reservation_extensions_payment_intent_unique')
      .on(t.paymentIntentId)
      .where(sql`${t.paymentIntentId} is not null`),
    // A booking's extensions (My Reservations' cards: the pending one, the approved ones' rental).
    index('reservation_extensions_reservation_idx').on(t.reservationId, t.status),
    // Overlap checks and the expiry job: pending requests by item and by the day they lapse.
    index('reservation_extensions_item_pending_idx')
      .on(t.itemId, t.newEndDate)
      .where(sql`${t.status} = 'pending'`),
    index('reservation_extensions_pending_end_idx').on(t.previousEndDate).where(sql`${t.status} = 'pending'`),
  ],
);
