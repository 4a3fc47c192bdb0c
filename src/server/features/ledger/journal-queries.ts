import { and, eq, sql } from 'drizzle-orm';
import type { JournalAccount, JournalKind } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { journalFindings, journalLines, journalTransactions } from '../../db/schema/ledger.ts';

// The journal's reads and writes (decision 058). Only journal.ts calls the writes; lines and
// transactions are inserted, never updated or deleted (the database refuses).

export interface LineInsert {
  account: JournalAccount;
  personId: string | null;
  amountCents: number;
}

/**
 * A transaction and its lines. A `source` already journalled writes nothing and answers false, so a
 * step or a provider event taken in twice is journalled once.
 */
export async function insertTransaction(
  db: Db,
  what: {
    kind: JournalKind;
    reservationId: string | null;
    paymentIntentId: string | null;
    source: string | null;
    releasedCents?: number | null;
    lines: LineInsert[];
    /** When it happened, when that was before now (history written afterwards). */
    at?: Date;
  },
): Promise<boolean> {
  const [row] = await db
    .insert(journalTransactions)
    .values({
      kind: what.kind,
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      source: what.source,
      releasedCents: what.releasedCents ?? null,
      ...(what.at ? { createdAt: what.at } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: journalTransactions.id });
  if (!row) return false;
  const lines = what.lines.filter((l) => l.amountCents !== 0);
  if (lines.length) {
    await db.insert(journalLines).values(
      lines.map((l) => ({
        transactionId: row.id,
        account: l.account,
        personId: l.personId,
        reservationId: what.reservationId,
        paymentIntentId: what.paymentIntentId,
        amountCents: l.amountCents,
        ...(what.at ? { createdAt: what.at } : {}),
      })),
    );
  }
  return true;
}

/**
 * Held until the transaction ends: one writer at a time brings an intent's journalled earnings up to
 * its earning entries (a capture succeeding while an early return changes the earning).
 */
export async function lockIntent(db: Db, paymentIntentId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`journal:${paymentIntentId}`}))`);
}

export async function captureOf(db: Db, paymentIntentId: string) {
  const [row] = await db
    .select({ id: journalTransactions.id, reservationId: journalTransactions.reservationId })
    .from(journalTransactions)
    .where(
      and(eq(journalTransactions.kind, 'capture'), eq(journalTransactions.paymentIntentId, paymentIntentId)),
    )
    .limit(1);
  return row;
}

/** The borrower whose money an intent is (null once their account is gone). */
export async function borrowerOfIntent(db: Db, paymentIntentId: string): Promise<string | null> {
  const { rows } = await db.execute<{ borrower_id: string | null }>(
    sql`select borrower_id from payment_intents where id = ${paymentIntentId}`,
  );
  return rows[0]?.borrower_id ?? null;
}

/**
 * Per lender and booking of an intent: what their earning entries add up to, and what the journal has
 * made payable to them for it so far.
 */
export async function earningsToJournal(db: Db, paymentIntentId: string) {
  const { rows } = await db.execute<{
    lender_id: string;
    reservation_id: string | null;
    entries: number;
    journalled: number;
  }>(sql`
    with entries as (
      select lender_id, reservation_id, sum(amount_cents)::int as cents
      from earning_entries where payment_intent_id = ${paymentIntentId}
      group by lender_id, reservation_id),
    journalled as (
      select l.person_id as lender_id, l.reservation_id, (-sum(l.amount_cents))::int as cents
      from journal_lines l join journal_transactions t on t.id = l.transaction_id
      where t.kind = 'earning' and l.account = 'lender_payable' and l.payment_intent_id = ${paymentIntentId}
      group by l.person_id, l.reservation_id)
    select coalesce(e.lender_id, j.lender_id) as lender_id,
           coalesce(e.reservation_id, j.reservation_id) as reservation_id,
           coalesce(e.cents, 0) as entries, coalesce(j.cents, 0) as journalled
    from entries e full join journalled j
      on j.lender_id = e.lender_id and j.reservation_id is not distinct from e.reservation_id`);
  return rows.map((r) => ({
    lenderId: r.lender_id,
    reservationId: r.reservation_id,
    entriesCents: Number(r.entries),
    journalledCents: Number(r.journalled),
  }));
}

/** A booking's figures, from the journal alone. */
export type BookingBooks = {
  reservationId: string;
  capturedCents: number;
  refundedCents: number;
  /** Taken back by disputes, less what was reinstated. */
  disputedCents: number;
  transferredCents: number;
  reversedCents: number;
  feesCents: number;
  /** Still owed to the lender (below zero: owed by them). */
  payableCents: number;
  /** The borrower's money still held (deposits, what is still to go back). */
  heldCents: number;
};

const booksSelect = sql`
  select l.reservation_id as "reservationId",
    coalesce(sum(l.amount_cents) filter (where t.kind = 'capture' and l.account = 'provider_cash'), 0)::int as "capturedCents",
    (-coalesce(sum(l.amount_cents) filter (where t.kind = 'refund' and l.account = 'provider_cash'), 0))::int as "refundedCents",
    (-coalesce(sum(l.amount_cents) filter (where t.kind in ('dispute_withdrawn', 'dispute_reinstated') and l.account = 'provider_cash'), 0))::int as "disputedCents",
    (-coalesce(sum(l.amount_cents) filter (where t.kind = 'transfer' and l.account = 'provider_cash'), 0))::int as "transferredCents",
    coalesce(sum(l.amount_cents) filter (where t.kind = 'transfer_reversal' and l.account = 'provider_cash'), 0)::int as "reversedCents",
    (-coalesce(sum(l.amount_cents) filter (where l.account = 'platform_fees'), 0))::int as "feesCents",
    (-coalesce(sum(l.amount_cents) filter (where l.account = 'lender_payable'), 0))::int as "payableCents",
    (-coalesce(sum(l.amount_cents) filter (where l.account = 'borrower'), 0))::int as "heldCents"
  from journal_lines l join journal_transactions t on t.id = l.transaction_id`;

export async function booksOfBookings(db: Db, reservationIds?: string[]): Promise<BookingBooks[]> {
  const where =
    reservationIds === undefined
      ? sql`where l.reservation_id is not null`
      : reservationIds.length
        ? sql`where l.reservation_id in (${sql.join(
            reservationIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`where false`;
  const { rows } = await db.execute<BookingBooks>(sql`${booksSelect} ${where} group by l.reservation_id`);
  return rows;
}

/** Journal transactions whose lines do not add up to zero (the database refuses them: none, ever). */
export async function unbalancedTransactions(db: Db) {
  const { rows } = await db.execute<{ transactionId: string; cents: number }>(sql`
    select transaction_id as "transactionId", sum(amount_cents)::int as cents
    from journal_lines group by transaction_id having sum(amount_cents) <> 0`);
  return rows;
}

/**
 * Per payment intent: what the journal says was charged, refunded and made payable, beside what the
 * billing rows and earning entries say. Only the intents where they disagree.
 */
const inList = (column: ReturnType<typeof sql.raw>, ids: string[] | undefined) =>
  ids === undefined
    ? sql`true`
    : ids.length
      ? sql`${column} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql`false`;

export async function intentsDisagreeingWithRows(db: Db, intentIds?: string[]) {
  const { rows } = await db.execute<{
    paymentIntentId: string;
    journalCaptured: number;
    rowsCaptured: number;
    journalRefunded: number;
    rowsRefunded: number;
    journalEarned: number;
    entriesEarned: number;
  }>(sql`
    with j as (
      select l.payment_intent_id as id,
        coalesce(sum(l.amount_cents) filter (where t.kind = 'capture' and l.account = 'provider_cash'), 0)::int as captured,
        (-coalesce(sum(l.amount_cents) filter (where t.kind = 'refund' and l.account = 'provider_cash'), 0))::int as refunded,
        (-coalesce(sum(l.amount_cents) filter (where t.kind = 'earning' and l.account = 'lender_payable'), 0))::int as earned
      from journal_lines l join journal_transactions t on t.id = l.transaction_id
      where l.payment_intent_id is not null group by l.payment_intent_id),
    b as (
      select stripe_payment_intent_id as id,
        coalesce(sum(amount_cents) filter (where kind = 'payment' and status = 'completed'), 0)::int as captured,
        coalesce(sum(amount_cents) filter (where kind = 'refund' and status = 'refunded'), 0)::int as refunded
      from billing_history where stripe_payment_intent_id is not null group by stripe_payment_intent_id),
    e as (
      select payment_intent_id as id, sum(amount_cents)::int as earned
      from earning_entries where payment_intent_id is not null group by payment_intent_id)
    select p.id as "paymentIntentId",
      coalesce(j.captured, 0) as "journalCaptured", coalesce(b.captured, 0) as "rowsCaptured",
      coalesce(j.refunded, 0) as "journalRefunded", coalesce(b.refunded, 0) as "rowsRefunded",
      coalesce(j.earned, 0) as "journalEarned",
      -- An earning is journalled once the payment is charged; before, it is only a promise.
      case when coalesce(j.captured, 0) > 0 then coalesce(e.earned, 0) else 0 end as "entriesEarned"
    from payment_intents p
    left join j on j.id = p.id left join b on b.id = p.id left join e on e.id = p.id
    where ${inList(sql.raw('p.id'), intentIds)} and (coalesce(j.captured, 0) <> coalesce(b.captured, 0)
       or coalesce(j.refunded, 0) <> coalesce(b.refunded, 0)
       or coalesce(j.earned, 0) <> case when coalesce(j.captured, 0) > 0 then coalesce(e.earned, 0) else 0 end)`);
  return rows;
}

/** Per lender: earnings journalled beside their earning entries of charged payments. */
export async function lendersDisagreeingWithEntries(db: Db) {
  const { rows } = await db.execute<{ lenderId: string; journalEarned: number; entriesEarned: number }>(sql`
    with j as (
      select l.person_id as id, (-sum(l.amount_cents))::int as earned
      from journal_lines l join journal_transactions t on t.id = l.transaction_id
      where t.kind = 'earning' and l.account = 'lender_payable' group by l.person_id),
    e as (
      select e.lender_id as id, sum(e.amount_cents)::int as earned
      from earning_entries e
      where exists (select 1 from journal_transactions c
                    where c.kind = 'capture' and c.payment_intent_id = e.payment_intent_id)
      group by e.lender_id)
    select coalesce(j.id, e.id) as "lenderId", coalesce(j.earned, 0) as "journalEarned",
           coalesce(e.earned, 0) as "entriesEarned"
    from j full join e on e.id = j.id
    where coalesce(j.earned, 0) <> coalesce(e.earned, 0)`);
  return rows;
}

/** The provider's net (received − refunded) per intent, as the journal says, for comparing with it. */
export async function providerCashByIntent(db: Db, intentIds?: string[]) {
  const { rows } = await db.execute<{ paymentIntentId: string; cents: number }>(sql`
    select l.payment_intent_id as "paymentIntentId", sum(l.amount_cents)::int as cents
    from journal_lines l join journal_transactions t on t.id = l.transaction_id
    where l.account = 'provider_cash' and t.kind in ('capture', 'refund') and l.payment_intent_id is not null
      and ${inList(sql.raw('l.payment_intent_id'), intentIds)}
    group by l.payment_intent_id`);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Money people owe or are owed

/** What a person is owed or owes as a lender: their payable (earned, not yet transferred) in cents. */
export async function payableOf(db: Db, personId: string): Promise<number> {
  const { rows } = await db.execute<{ cents: number }>(sql`
    select (-coalesce(sum(amount_cents), 0))::int as cents
    from journal_lines where account = 'lender_payable' and person_id = ${personId}`);
  return Number(rows[0]?.cents ?? 0);
}

/**
 * Money between a person and CampusLoop: theirs we still hold as a borrower (below zero: what they owe
 * after a dispute), what we owe them as a lender (below zero: what they owe), and whether a payment
 * step of one of their bookings or payments is still on its way.
 */
export async function moneyOfPerson(db: Db, personId: string) {
  const { rows } = await db.execute<{ held: number; payable: number; moving: boolean }>(sql`
    select
      (-coalesce((select sum(amount_cents) from journal_lines
                  where account = 'borrower' and person_id = ${personId}), 0))::int as held,
      (-coalesce((select sum(amount_cents) from journal_lines
                  where account = 'lender_payable' and person_id = ${personId}), 0))::int as payable,
      exists (select 1 from payment_steps s
              left join reservations r on r.id = s.reservation_id
              left join payment_intents p on p.id = s.payment_intent_id
              where s.status in ('pending', 'running', 'failed')
                and (r.borrower_id = ${personId} or r.provider_id = ${personId} or p.borrower_id = ${personId}))
        as moving`);
  const row = rows[0];
  return {
    heldCents: Number(row?.held ?? 0),
    payableCents: Number(row?.payable ?? 0),
    moving: Boolean(row?.moving),
  };
}

// ---------------------------------------------------------------------------------------------
// Yearly totals (US 1099-K)

/**
 * Per lender, for a calendar year (UTC): gross earnings journalled (charged payments, less what was
 * taken back the same year) and how many payments they earned on.
 */
export async function lenderTotals(db: Db, year: number) {
  const from = `${year}-01-01T00:00:00Z`;
  const to = `${year + 1}-01-01T00:00:00Z`;
  const { rows } = await db.execute<{
    lenderId: string;
    name: string | null;
    grossCents: number;
    transactions: number;
  }>(sql`
    with per_payment as (
      select l.person_id, l.payment_intent_id, (-sum(l.amount_cents))::int as cents
      from journal_lines l join journal_transactions t on t.id = l.transaction_id
      where t.kind = 'earning' and l.account = 'lender_payable' and l.person_id is not null
        and t.created_at >= ${from}::timestamptz and t.created_at < ${to}::timestamptz
      group by l.person_id, l.payment_intent_id)
    select p.person_id as "lenderId", u.full_name as name,
           sum(p.cents)::int as "grossCents", (count(*) filter (where p.cents > 0))::int as transactions
    from per_payment p left join users u on u.id = p.person_id and u.deleted_at is null
    group by p.person_id, u.full_name
    having sum(p.cents) <> 0
    order by 3 desc, 1`);
  return rows.map((r) => ({ ...r, grossCents: Number(r.grossCents), transactions: Number(r.transactions) }));
}

// ---------------------------------------------------------------------------------------------
// Findings

export async function recordFinding(
  db: Db,
  what: { reservationId: string; cashCents: number; accountedCents: number; problem: string },
): Promise<void> {
  await db
    .insert(journalFindings)
    .values(what)
    .onConflictDoUpdate({
      target: journalFindings.reservationId,
      targetWhere: sql`${journalFindings.resolvedAt} is null`,
      set: { cashCents: what.cashCents, accountedCents: what.accountedCents, problem: what.problem },
    });
}

export async function resolveFindings(db: Db, reservationIds: string[]): Promise<void> {
  if (!reservationIds.length) return;
  await db
    .update(journalFindings)
    .set({ resolvedAt: new Date() })
    .where(
      and(
        sql`${journalFindings.resolvedAt} is null`,
        sql`${journalFindings.reservationId} in (${sql.join(
          reservationIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
}

export async function openFindings(db: Db, limit = 100) {
  const { rows } = await db.execute<{
    id: string;
    reservationId: string;
    itemTitle: string | null;
    problem: string;
    cashCents: number;
    accountedCents: number;
    detectedAt: Date | string;
  }>(sql`
    select f.id, f.reservation_id as "reservationId", i.title as "itemTitle", f.problem,
           f.cash_cents as "cashCents", f.accounted_cents as "accountedCents", f.detected_at as "detectedAt"
    from journal_findings f
    left join reservations r on r.id = f.reservation_id
    left join items i on i.id = r.item_id
    where f.resolved_at is null
    order by f.detected_at desc
    limit ${limit}`);
  return rows;
}

/** The platform's share of a payment (service fee and commission), as its entries add up. */
export async function platformShareCents(db: Db, paymentIntentId: string): Promise<number> {
  const { rows } = await db.execute<{ cents: number }>(sql`
    select coalesce(sum(amount_cents), 0)::int as cents
    from platform_fee_entries where payment_intent_id = ${paymentIntentId}`);
  return Number(rows[0]?.cents ?? 0);
}

/** The fees the journal holds of a payment: what its fee transactions credited to platform_fees. */
export async function feesJournalled(db: Db, paymentIntentId: string): Promise<number> {
  const { rows } = await db.execute<{ cents: number }>(sql`
    select (-coalesce(sum(l.amount_cents), 0))::int as cents
    from journal_lines l join journal_transactions t on t.id = l.transaction_id
    where l.account = 'platform_fees' and t.kind in ('fee', 'fee_returned')
      and l.payment_intent_id = ${paymentIntentId}`);
  return Number(rows[0]?.cents ?? 0);
}

/** Charged payments whose journalled fees are not the platform's share of them (none, when sound). */
export async function feesDisagreeingWithShare(db: Db) {
  const { rows } = await db.execute<{ paymentIntentId: string; journalled: number; share: number }>(sql`
    with share as (
      select payment_intent_id as id, sum(amount_cents)::int as cents
      from platform_fee_entries group by payment_intent_id),
    fees as (
      select l.payment_intent_id as id, (-sum(l.amount_cents))::int as cents
      from journal_lines l join journal_transactions t on t.id = l.transaction_id
      where l.account = 'platform_fees' and t.kind in ('fee', 'fee_returned') group by l.payment_intent_id),
    charged as (
      select distinct l.payment_intent_id as id
      from journal_lines l join journal_transactions t on t.id = l.transaction_id
      where t.kind = 'capture')
    select c.id as "paymentIntentId", coalesce(f.cents, 0) as journalled, coalesce(s.cents, 0) as share
    from charged c left join share s on s.id = c.id left join fees f on f.id = c.id
    where coalesce(f.cents, 0) <> coalesce(s.cents, 0)`);
  return rows;
}
