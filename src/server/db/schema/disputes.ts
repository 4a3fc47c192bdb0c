import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { DISPUTE_FINDINGS, DISPUTE_STATUSES, RECEIVABLE_REASONS } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// Card chargebacks (decision 059): what the provider says of each dispute, as last read from it, and
// what a moderator made of it. Only src/server/features/disputes writes these tables.

export const disputes = pgTable(
  'disputes',
  {
    id: id(),
    /** The provider's id (dp_…): an event names it, and it is read again from the provider before acting. */
    providerDisputeId: text('provider_dispute_id').notNull().unique(),
    /** Kept when the reservation goes, with the link cleared (as billing rows are). */
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    paymentIntentId: text('payment_intent_id').notNull(),
    /** The lender of the booking when the dispute opened: who a reversal and a receivable are of. */
    lenderId: uuid('lender_id').references(() => users.id, { onDelete: 'set null' }),
    borrowerId: uuid('borrower_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** The bank's reason code (fraudulent, product_not_received, …), as the provider names it. */
    reason: text('reason').notNull(),
    status: text('status').notNull(),
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    /** Taken from the platform's balance by the provider so far (the disputed amount). */
    withdrawnCents: integer('withdrawn_cents').notNull().default(0),
    /** Given back by the provider so far (a dispute won). */
    reinstatedCents: integer('reinstated_cents').notNull().default(0),
    /** The provider's dispute fees, net of any it gave back. */
    feeCents: integer('fee_cents').notNull().default(0),
    /** won or lost once closed; null while open. */
    outcome: text('outcome'),
    /** The evidence as last submitted to the provider, field by field. */
    evidence: jsonb('evidence').$type<Record<string, string>>(),
    evidenceSubmittedAt: timestamp('evidence_submitted_at', { withTimezone: true }),
    evidenceSubmittedBy: uuid('evidence_submitted_by').references(() => users.id, { onDelete: 'set null' }),
    finding: text('finding'),
    findingNote: text('finding_note'),
    foundBy: uuid('found_by').references(() => users.id, { onDelete: 'set null' }),
    foundAt: timestamp('found_at', { withTimezone: true }),
    /** What the lender's transfer is to give back, when they were found at fault. */
    reversalCents: integer('reversal_cents'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('disputes_status_check', oneOf(t.status, DISPUTE_STATUSES)),
    check('disputes_outcome_check', sql`${t.outcome} is null or ${t.outcome} in ('won', 'lost')`),
    check('disputes_finding_check', sql`${t.finding} is null or ${oneOf(t.finding, DISPUTE_FINDINGS)}`),
    check(
      'disputes_amounts_check',
      sql`${t.amountCents} > 0 and ${t.withdrawnCents} >= 0 and ${t.reinstatedCents} >= 0 and ${t.feeCents} >= 0 and (${t.reversalCents} is null or ${t.reversalCents} >= 0)`,
    ),
    index('disputes_reservation_idx').on(t.reservationId),
    index('disputes_created_idx').on(t.createdAt),
  ],
);

/**
 * What lenders owe the platform, as entries that only grow: a reversal their balance could not cover
 * adds (positive), what is netted from a later transfer subtracts (negative). A lender's receivable is
 * the sum, never below zero.
 */
export const lenderReceivables = pgTable(
  'lender_receivables',
  {
    id: id(),
    lenderId: uuid('lender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    disputeId: uuid('dispute_id').references(() => disputes.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('lender_receivables_reason_check', oneOf(t.reason, RECEIVABLE_REASONS)),
    check(
      'lender_receivables_sign_check',
      sql`(${t.reason} = 'dispute_reversal' and ${t.amountCents} > 0) or (${t.reason} = 'netted_from_transfer' and ${t.amountCents} < 0)`,
    ),
    index('lender_receivables_lender_idx').on(t.lenderId, t.createdAt),
  ],
);
