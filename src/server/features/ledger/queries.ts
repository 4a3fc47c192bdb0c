import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type {
  BillingKind,
  BillingStatus,
  EarningReason,
  PaymentStepKind,
  PaymentStepPurpose,
  PlatformFeePart,
} from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { earningEntries, paymentStepRows, platformFeeEntries } from '../../db/schema/ledger.ts';
import { billingHistory, paymentSteps } from '../../db/schema/payments.ts';
import { reservations } from '../../db/schema/reservations.ts';

// The only place that writes billing rows, payment steps (their creation and what each settles) and
// earning entries. Reads that the ledger's reconciliation needs live here too.

export type BillingInsert = typeof billingHistory.$inferInsert;

/** A billing row's description as stored: written, and how (wordings.ts) when a wording wrote it. */
export type Described = Pick<BillingInsert, 'description' | 'descriptionKind' | 'descriptionValues'>;
export type BillingRow = typeof billingHistory.$inferSelect;
export type StepRow = typeof paymentSteps.$inferSelect;

const ofPayment = (reservationId: string, paymentIntentId: string | null | undefined) =>
  and(
    eq(billingHistory.reservationId, reservationId),
    paymentIntentId ? eq(billingHistory.stripePaymentIntentId, paymentIntentId) : undefined,
  );

// ---------------------------------------------------------------------------------------------
// Billing rows

export async function insertRows(db: Db, rows: BillingInsert[]): Promise<BillingRow[]> {
  if (!rows.length) return [];
  return db.insert(billingHistory).values(rows).returning();
}

/** A user's rows of one payment in one status, given new values (a payment's description on approval). */
export async function updateRowsOf(
  db: Db,
  where: {
    reservationId: string;
    paymentIntentId?: string | null;
    userId?: string;
    kinds?: BillingKind[];
    statuses?: BillingStatus[];
  },
  values: Partial<BillingInsert>,
): Promise<BillingRow[]> {
  return db
    .update(billingHistory)
    .set(values)
    .where(
      and(
        ofPayment(where.reservationId, where.paymentIntentId),
        where.userId ? eq(billingHistory.userId, where.userId) : undefined,
        where.kinds ? inArray(billingHistory.kind, where.kinds) : undefined,
        where.statuses ? inArray(billingHistory.status, where.statuses) : undefined,
      ),
    )
    .returning();
}

export async function rowsOf(
  db: Db,
  where: {
    reservationId: string;
    paymentIntentId?: string | null;
    kinds: BillingKind[];
    statuses?: BillingStatus[];
  },
): Promise<BillingRow[]> {
  return db
    .select()
    .from(billingHistory)
    .where(
      and(
        ofPayment(where.reservationId, where.paymentIntentId),
        inArray(billingHistory.kind, where.kinds),
        where.statuses ? inArray(billingHistory.status, where.statuses) : undefined,
      ),
    );
}

export async function setRowAmount(db: Db, id: string, amountCents: number, described: Described) {
  await db
    .update(billingHistory)
    .set({ amountCents, ...described })
    .where(eq(billingHistory.id, id));
}

export async function deleteRows(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(billingHistory).where(inArray(billingHistory.id, ids));
}

/** The billing rows a step settles, of these kinds and statuses, given new values. */
export async function settleRowsOfStep(
  db: Db,
  stepId: string,
  where: { kinds: BillingKind[]; statuses?: BillingStatus[] },
  values: Partial<BillingInsert> | ((row: BillingRow) => Partial<BillingInsert>),
): Promise<BillingRow[]> {
  const linked = await db
    .select({ row: billingHistory })
    .from(paymentStepRows)
    .innerJoin(billingHistory, eq(billingHistory.id, paymentStepRows.billingId))
    .where(
      and(
        eq(paymentStepRows.stepId, stepId),
        inArray(billingHistory.kind, where.kinds),
        where.statuses ? inArray(billingHistory.status, where.statuses) : undefined,
      ),
    );
  const settled: BillingRow[] = [];
  for (const { row } of linked) {
    const set = typeof values === 'function' ? values(row) : values;
    const [after] = await db.update(billingHistory).set(set).where(eq(billingHistory.id, row.id)).returning();
    if (after) settled.push(after);
  }
  return settled;
}

/** Charged minus refunded for a payment intent, as the rows say. */
export async function netCents(db: Db, paymentIntentId: string): Promise<number> {
  const [row] = await db
    .select({
      net: sql<number>`coalesce(sum(case
        when ${billingHistory.kind} = 'payment' and ${billingHistory.status} = 'completed' then ${billingHistory.amountCents}
        when ${billingHistory.kind} = 'refund' and ${billingHistory.status} = 'refunded' then -${billingHistory.amountCents}
        else 0 end), 0)::int`,
    })
    .from(billingHistory)
    .where(eq(billingHistory.stripePaymentIntentId, paymentIntentId));
  return row?.net ?? 0;
}

/** Takes a leaving person's name out of the descriptions of rows about reservations they were part of. */
export async function replaceNameInDescriptions(
  db: Db,
  userId: string,
  fullName: string,
  replacement: string,
): Promise<void> {
  const theirReservations = db
    .select({ id: reservations.id })
    .from(reservations)
    .where(or(eq(reservations.borrowerId, userId), eq(reservations.providerId, userId)));
  await db
    .update(billingHistory)
    .set({
      description: sql`replace(${billingHistory.description}, ${fullName}, ${replacement})`,
      // The wording's values hold the name too: the row is read as stored from now on.
      descriptionKind: null,
      descriptionValues: null,
    })
    .where(inArray(billingHistory.reservationId, theirReservations));
}

// ---------------------------------------------------------------------------------------------
// Payment steps

export async function insertStep(
  db: Db,
  values: {
    paymentIntentId: string;
    reservationId: string | null;
    kind: PaymentStepKind;
    purpose: PaymentStepPurpose;
    amountCents: number;
    idempotencyKey: string;
    billingId?: string | null;
    notBefore?: Date | null;
  },
): Promise<StepRow> {
  const [row] = await db.insert(paymentSteps).values(values).returning();
  return row!;
}

/** Records which billing rows a step settles. */
export async function linkRows(db: Db, stepId: string, billingIds: string[]): Promise<void> {
  if (!billingIds.length) return;
  await db
    .insert(paymentStepRows)
    .values(billingIds.map((billingId) => ({ stepId, billingId })))
    .onConflictDoNothing();
}

/** The intent's steps of this kind that have not finished (a capture still to run). */
export async function unfinishedSteps(db: Db, paymentIntentId: string, kind: PaymentStepKind) {
  return db
    .select()
    .from(paymentSteps)
    .where(
      and(
        eq(paymentSteps.paymentIntentId, paymentIntentId),
        eq(paymentSteps.kind, kind),
        inArray(paymentSteps.status, ['pending', 'running', 'failed']),
      ),
    );
}

/**
 * Steps of the intent of this kind that have not started, or failed, made moot by a later change (a
 * cancel before the capture ran). A step running now is not touched: it will finish first.
 */
export async function supersede(db: Db, paymentIntentId: string, kind: PaymentStepKind): Promise<StepRow[]> {
  return db
    .update(paymentSteps)
    .set({ status: 'superseded', updatedAt: new Date(), lockedUntil: null })
    .where(
      and(
        eq(paymentSteps.paymentIntentId, paymentIntentId),
        eq(paymentSteps.kind, kind),
        inArray(paymentSteps.status, ['pending', 'failed', 'waiting']),
      ),
    )
    .returning();
}

/** Whether the intent's card hold close to the start (decision 062) has not been made: nothing is held. */
export async function holdNotMade(db: Db, paymentIntentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentSteps.id })
    .from(paymentSteps)
    .where(
      and(
        eq(paymentSteps.paymentIntentId, paymentIntentId),
        eq(paymentSteps.kind, 'authorise'),
        inArray(paymentSteps.status, ['pending', 'failed', 'waiting']),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** A step already made at the provider (a refund from its dashboard): recorded as done. */
export async function insertFinishedStep(db: Db, values: Parameters<typeof insertStep>[1]): Promise<StepRow> {
  const now = new Date();
  const [row] = await db
    .insert(paymentSteps)
    .values({ ...values, status: 'succeeded', completedAt: now, updatedAt: now })
    .returning();
  return row!;
}

// ---------------------------------------------------------------------------------------------
// Earning entries (append-only: inserted, never updated or deleted)

export async function insertEntries(
  db: Db,
  entries: {
    lenderId: string;
    reservationId: string | null;
    paymentIntentId: string | null;
    billingId: string | null;
    amountCents: number;
    reason: EarningReason;
  }[],
): Promise<void> {
  const rows = entries.filter((e) => e.amountCents !== 0);
  if (rows.length) await db.insert(earningEntries).values(rows);
}

// ---------------------------------------------------------------------------------------------
// Platform fee entries (append-only, decision 055)

export async function insertPlatformEntries(
  db: Db,
  entries: {
    reservationId: string | null;
    paymentIntentId: string;
    part: PlatformFeePart;
    amountCents: number;
  }[],
): Promise<void> {
  const rows = entries.filter((e) => e.amountCents !== 0);
  if (rows.length) await db.insert(platformFeeEntries).values(rows);
}

/** The platform's share of a payment as its entries add up, per part. */
export async function platformShareOf(
  db: Db,
  paymentIntentId: string,
): Promise<{ part: PlatformFeePart; cents: number }[]> {
  const rows = await db
    .select({
      part: platformFeeEntries.part,
      cents: sql<number>`coalesce(sum(${platformFeeEntries.amountCents}), 0)::int`,
    })
    .from(platformFeeEntries)
    .where(eq(platformFeeEntries.paymentIntentId, paymentIntentId))
    .groupBy(platformFeeEntries.part);
  return rows.map((r) => ({ part: r.part as PlatformFeePart, cents: r.cents }));
}

/** The platform's share of a booking's payments (its own and its extensions'), per part. */
export async function platformShareOfBooking(
  db: Db,
  reservationId: string,
): Promise<{ serviceFeeCents: number; commissionCents: number }> {
  const rows = await db
    .select({
      part: platformFeeEntries.part,
      cents: sql<number>`coalesce(sum(${platformFeeEntries.amountCents}), 0)::int`,
    })
    .from(platformFeeEntries)
    .where(eq(platformFeeEntries.reservationId, reservationId))
    .groupBy(platformFeeEntries.part);
  const of = (part: PlatformFeePart) => rows.find((r) => r.part === part)?.cents ?? 0;
  return { serviceFeeCents: of('service_fee'), commissionCents: of('commission') };
}

/** A billing row's earning as it counts: its amount, none of it once the payment was given back. */
const earningOfRow = sql`case when ${billingHistory.status} = 'refunded'
  then ${billingHistory.amountCents} - coalesce(${billingHistory.refundAmountCents}, ${billingHistory.amountCents})
  else ${billingHistory.amountCents} end`;

export interface EarningsFigure {
  /** The sum of the earning entries. */
  entriesCents: number;
  /** What the lender's earning billing rows say. */
  billingCents: number;
}

async function earningsWhere(
  db: Db,
  entries: SQL | undefined,
  rows: SQL | undefined,
): Promise<EarningsFigure> {
  const [e] = await db
    .select({ cents: sql<number>`coalesce(sum(${earningEntries.amountCents}), 0)::int` })
    .from(earningEntries)
    .where(entries);
  const [b] = await db
    .select({ cents: sql<number>`coalesce(sum(${earningOfRow}), 0)::int` })
    .from(billingHistory)
    .where(and(eq(billingHistory.kind, 'earning'), rows));
  return { entriesCents: e?.cents ?? 0, billingCents: b?.cents ?? 0 };
}

export const earningsOfBooking = (db: Db, reservationId: string) =>
  earningsWhere(
    db,
    eq(earningEntries.reservationId, reservationId),
    eq(billingHistory.reservationId, reservationId),
  );

export const earningsOfLender = (db: Db, lenderId: string) =>
  earningsWhere(db, eq(earningEntries.lenderId, lenderId), eq(billingHistory.userId, lenderId));

/**
 * Payments whose earning entries and earning rows disagree, for payments CampusLoop recorded (rows
 * written by hand, outside any payment, are not the ledger's). One row per payment intent.
 */
export async function earningMismatches(db: Db) {
  const { rows } = await db.execute<{
    paymentIntentId: string;
    entriesCents: number;
    billingCents: number;
  }>(sql`
    select p.id as "paymentIntentId",
           coalesce((select sum(e.amount_cents) from earning_entries e where e.payment_intent_id = p.id), 0)::int
             as "entriesCents",
           coalesce((select sum(case when b.status = 'refunded'
                                  then b.amount_cents - coalesce(b.refund_amount_cents, b.amount_cents)
                                  else b.amount_cents end)
                     from billing_history b where b.kind = 'earning' and b.stripe_payment_intent_id = p.id), 0)::int
             as "billingCents"
    from payment_intents p`);
  return rows.filter((r) => r.entriesCents !== r.billingCents);
}

/**
 * Decision 055: payments whose charged money is not accounted for. For each payment CampusLoop
 * recorded whose provider steps have all finished (none waiting, running or failed for good, and no
 * refund made outside CampusLoop): charged (the borrower's payment row, completed) equals what was
 * refunded, plus the lender's earning entries, plus the platform's fee entries, plus the deposit still
 * held (the booking's own payment, while the item is out or its deposit undecided). A payment never
 * charged (released) leaves no earning and no platform share. One row per payment that disagrees.
 */
export async function unaccountedPayments(db: Db) {
  const { rows } = await db.execute<{
    paymentIntentId: string;
    chargedCents: number;
    refundedCents: number;
    earnedCents: number;
    platformCents: number;
    depositHeldCents: number;
  }>(sql`
    with settled as (
      select p.id, pay.status as payment_status, pay.amount_cents as payment_cents,
             coalesce(r.deposit_cents, 0) as deposit_cents, r.status as reservation_status
      from payment_intents p
      join billing_history pay on pay.stripe_payment_intent_id = p.id and pay.kind = 'payment'
      left join reservations r on r.id = p.reservation_id
      where not exists (select 1 from payment_steps s where s.payment_intent_id = p.id
                          and (s.status in ('pending', 'running', 'failed') or s.purpose = 'support'))
        and not exists (select 1 from billing_history f where f.stripe_payment_intent_id = p.id
                          and f.status = 'failed')
        and pay.status in ('completed', 'refunded')
    )
    select s.id as "paymentIntentId",
           (case when s.payment_status = 'completed' then s.payment_cents else 0 end)::int as "chargedCents",
           coalesce((select sum(b.amount_cents) from billing_history b where b.stripe_payment_intent_id = s.id
                       and b.kind = 'refund' and b.status = 'refunded'), 0)::int as "refundedCents",
           coalesce((select sum(e.amount_cents) from earning_entries e where e.payment_intent_id = s.id), 0)::int
             as "earnedCents",
           coalesce((select sum(f.amount_cents) from platform_fee_entries f where f.payment_intent_id = s.id), 0)::int
             as "platformCents",
           (case when s.payment_status = 'completed'
                  and s.reservation_status in ('approved', 'active', 'returned', 'claimed', 'disputed')
                 then s.deposit_cents else 0 end)::int as "depositHeldCents"
    from settled s`);
  return rows.filter(
    (r) => r.chargedCents !== r.refundedCents + r.earnedCents + r.platformCents + r.depositHeldCents,
  );
}
