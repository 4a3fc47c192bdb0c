import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CANCELLATION_POLICIES, DEFAULT_CANCELLATION_POLICY } from '#shared/booking/cancellation-policy.ts';
import { REMINDER_KINDS, RENTAL_PERIODS, RESERVATION_STATUSES } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { users } from './users.ts';

export const reservations = pgTable(
  'reservations',
  {
    id: id(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    borrowerId: uuid('borrower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    status: text('status').notNull().default('pending'),
    depositCents: integer('deposit_cents').notNull().default(0),
    rentalCents: integer('rental_cents').notNull().default(0),
    /**
     * Decision 055: the platform's share, at the rates in force when it was requested (0 on rows made
     * before the fee): the borrower's service fee on the rental (held and charged with it), and the
     * commission taken from the lender's rental earning.
     */
    serviceFeeCents: integer('service_fee_cents').notNull().default(0),
    serviceFeePercent: numeric('service_fee_percent', { precision: 5, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    lenderCommissionCents: integer('lender_commission_cents').notNull().default(0),
    lenderCommissionPercent: numeric('lender_commission_percent', { precision: 5, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    /**
     * When the card was authorised for this booking (no later than this; null: nothing authorised). A
     * pending request ends before the authorisation lapses (decision 057).
     */
    authorisedAt: timestamp('authorised_at', { withTimezone: true }),
    /**
     * Decision 062: a booking that starts more than AUTHORISE_AHEAD_DAYS ahead is not held at the
     * request; its card is saved and authorised off-session from this time on (null: held at the request).
     */
    authoriseFrom: timestamp('authorise_from', { withTimezone: true }),
    /** The saved card (the provider's pm_… id) the off-session authorisation uses. */
    offSessionPaymentMethod: text('off_session_payment_method'),
    /** The off-session authorisation failed: 'declined' or 'authentication_required' (null: no problem). */
    cardProblem: text('card_problem'),
    /** The borrower fixes the card by then, or the booking is cancelled with nothing charged. */
    cardFixBy: timestamp('card_fix_by', { withTimezone: true }),
    /** Six digits the borrower shows at the meetup (spec §4). */
    pickupCode: text('pickup_code'),
    /** Wrong codes typed by the lender since the code was issued; at the limit a new code is issued. */
    pickupCodeAttempts: smallint('pickup_code_attempts').notNull().default(0),
    declineReason: text('decline_reason'),
    /** The item's cancellation policy when it was requested: a later change of the item's does not apply. */
    cancellationPolicy: text('cancellation_policy').notNull().default(DEFAULT_CANCELLATION_POLICY),
    /** The item's rental period when it was requested (null: a flat price): an early return counts by it. */
    rentalPeriod: text('rental_period'),
    /**
     * Decision 034: an early return moved `end_date` to the return day; this is the end
     * it had before, and `early_refund_cents` the rental it gave back (by the policy, every payment).
     */
    bookedEndDate: date('booked_end_date'),
    earlyRefundCents: integer('early_refund_cents'),
    /** Who cancelled: a lender's cancellations count on their profile. */
    cancelledBy: text('cancelled_by'),
    /** When the lender approved: a lender's cancellations count against the bookings they approved. */
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** Spec §4 "Picked Up" / "Item Collected" (approved → active): pickup photos may follow for a while (decision 033). */
    pickedUpAt: timestamp('picked_up_at', { withTimezone: true }),
    /** When the lender marked it returned; reviews and impact count from here. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The borrower's "Item Returned"; the lender's 48-hour window runs from here. */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    /** The lender's deposit claim ("Report a problem"): what and how much (at most the deposit). */
    claimCents: integer('claim_cents'),
    claimDescription: text('claim_description'),
    claimPhotos: text('claim_photos').array().notNull().default(sql`'{}'::text[]`),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The borrower's dispute of the claim, for the moderators' queue. */
    disputeNote: text('dispute_note'),
    disputePhotos: text('dispute_photos').array().notNull().default(sql`'{}'::text[]`),
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
    /** What the lender keeps from the deposit in the end: the claim accepted, or a moderator's award. */
    awardedCents: integer('awarded_cents'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** The moderator who decided a dispute. */
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reservations_status_check', oneOf(t.status, RESERVATION_STATUSES)),
    check('reservations_cancellation_policy_check', oneOf(t.cancellationPolicy, CANCELLATION_POLICIES)),
    check(
      'reservations_cancelled_by_check',
      sql`${t.cancelledBy} is null or ${t.cancelledBy} in ('borrower', 'provider', 'system')`,
    ),
    check('reservations_rental_period_check', oneOf(t.rentalPeriod, RENTAL_PERIODS)),
    check(
      'reservations_early_return_check',
      sql`(${t.bookedEndDate} is null) = (${t.earlyRefundCents} is null) and (${t.bookedEndDate} is null or (${t.bookedEndDate} > ${t.endDate} and ${t.earlyRefundCents} >= 0))`,
    ),
    check('reservations_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    check('reservations_amounts_check', sql`${t.depositCents} >= 0 and ${t.rentalCents} >= 0`),
    check(
      'reservations_platform_share_check',
      sql`${t.serviceFeeCents} >= 0 and ${t.lenderCommissionCents} >= 0 and ${t.lenderCommissionCents} <= ${t.rentalCents}`,
    ),
    check('reservations_parties_check', sql`${t.borrowerId} <> ${t.providerId}`),
    check(
      'reservations_claim_check',
      sql`(${t.claimCents} is null or (${t.claimCents} > 0 and ${t.claimCents} <= ${t.depositCents})) and (${t.awardedCents} is null or (${t.awardedCents} >= 0 and ${t.awardedCents} <= coalesce(${t.claimCents}, 0)))`,
    ),
    // The release job: returned reservations by when they came back.
    index('reservations_returned_idx').on(t.returnedAt).where(sql`${t.status} = 'returned'`),
    // My Reservations: the Borrowing and Lending tabs.
    index('reservations_borrower_created_idx').on(t.borrowerId, t.createdAt.desc()),
    index('reservations_provider_created_idx').on(t.providerId, t.createdAt.desc()),
    // Availability and "out with a borrower" checks per item.
    index('reservations_item_status_idx').on(t.itemId, t.status, t.startDate),
    // "Available now" in lists and searches: the items out with a borrower, read once and hashed
    // instead of probed per candidate (features/items/queries.ts).
    index('reservations_out_item_idx').on(t.itemId).where(sql`${t.status} = 'active'`),
    // One payment, one booking: a confirmed card authorisation pays for one reservation.
    uniqueIndex('reservations_payment_intent_unique')
      .on(t.stripePaymentIntentId)
      .where(sql`${t.stripePaymentIntentId} is not null`),
    // Expiry job: pending requests by age.
    // The card-fix deadline job: bookings whose off-session authorisation waits for the borrower.
    index('reservations_card_fix_by_idx').on(t.cardFixBy).where(sql`${t.cardFixBy} is not null`),
    check(
      'reservations_card_problem_check',
      sql`${t.cardProblem} is null or ${t.cardProblem} in ('declined', 'authentication_required')`,
    ),
    index('reservations_pending_created_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The reminders sent for a reservation. The primary key is the promise 'never sent twice':
 * the row and its notifications are written in one transaction, and a second round (or a second
 * instance) finds the row and sends nothing.
 */
export const reservationReminders = pgTable(
  'reservation_reminders',
  {
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.reservationId, t.kind] }),
    check('reservation_reminders_kind_check', oneOf(t.kind, REMINDER_KINDS)),
  ],
);
