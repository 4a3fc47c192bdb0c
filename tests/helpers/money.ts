import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { bookingEquation, journal } from '../../src/server/features/ledger/journal.ts';
import { ledgerService } from '../../src/server/features/ledger/service.ts';
import { type PaymentStepDeps, paymentStepService } from '../../src/server/features/payment-steps/service.ts';
import type { ReservationDeps } from '../../src/server/features/reservations/service.ts';
import type { TestContext } from './test-app.ts';

// Money checks for API tests (decision 012): the payment steps a request wrote are run the
// way the job queue runs them, and after every test our billing rows must say what the provider did.

export function stepDeps(t: TestContext, payments = t.app.payments): PaymentStepDeps {
  // The app's metrics, when the test turned them on: failures count as the worker's would.
  return {
    db: t.database.db,
    payments,
    jobs: t.app.jobs,
    payment: t.config.payments,
    metrics: t.app.metrics,
  };
}

export function reservationDeps(t: TestContext): ReservationDeps {
  return {
    db: t.database.db,
    payments: t.app.payments,
    jobs: t.app.jobs,
    timeZone: t.config.campusTimeZone,
    fees: t.config.fees,
  };
}

/** Runs every payment step waiting in the outbox, as the background worker would. */
export async function settlePayments(t: TestContext, payments = t.app.payments): Promise<void> {
  await paymentStepService.drain(stepDeps(t, payments));
}

/** Payment steps by status, for assertions. */
export async function stepStatuses(t: TestContext, intentId: string): Promise<string[]> {
  const { rows } = await t.database.db.execute<{ kind: string; status: string }>(
    sql`select kind, status from payment_steps where payment_intent_id = ${intentId} order by seq`,
  );
  return rows.map((r) => `${r.kind}:${r.status}`);
}

/**
 * Per payment intent: charged minus refunded, by our billing rows, equals what the (test) provider
 * received minus what it refunded. Holds after every test, whatever failed in between.
 */
export async function expectMoneyBalanced(t: TestContext): Promise<void> {
  if (!(t.app?.payments instanceof TestPaymentProvider)) return;
  const { rows } = await t.database.db.execute<{ id: string; billing: number; provider: number }>(sql`
    select p.id,
           coalesce((select sum(case
                       when b.kind = 'payment' and b.status = 'completed' then b.amount_cents
                       when b.kind = 'refund' and b.status = 'refunded' then -b.amount_cents
                       else 0 end)
                     from billing_history b where b.stripe_payment_intent_id = p.id), 0)::int as billing,
           (t.amount_received_cents - t.amount_refunded_cents)::int as provider
    from payment_intents p join test_payment_intents t on t.id = p.id`);
  const unbalanced = rows.filter((r) => r.billing !== r.provider);
  expect(unbalanced, 'billing rows match the provider for every payment').toEqual([]);
  // The ledger's own reconciliation: each payment's earning entries add up to its earning rows.
  const earnings = await ledgerService.earningMismatches(t.database.db);
  expect(earnings, 'earning entries match the earning rows of every payment').toEqual([]);
  // Every cent charged is accounted for (decision 055): refunded, earned by the lender, the platform's
  // service fee and commission, or the deposit still held.
  const unaccounted = await ledgerService.unaccountedPayments(t.database.db);
  expect(unaccounted, 'captured = refunded + lender earnings + platform fee + deposit held').toEqual([]);
  await expectDisputesBalanced(t);
  await expectJournalBalanced(t, rows);
  await expectTransfersBalanced(t);
}

/**
 * Transfers to lenders (decision 056): per booking and per lender, what was transferred (less what was
 * taken back) is never more than what was earned, and our sent transfers are the provider's, by
 * destination account.
 */
export async function expectTransfersBalanced(t: TestContext): Promise<void> {
  const db = t.database.db;
  const { rows: overBooking } = await db.execute<{ reservation_id: string }>(sql`
    select p.reservation_id from payout_transfers p where p.status in ('sent', 'reversed')
    group by p.reservation_id, p.lender_id
    having sum(p.amount_cents - p.reversed_cents) > coalesce((select sum(e.amount_cents) from earning_entries e
      where e.reservation_id = p.reservation_id and e.lender_id = p.lender_id), 0)`);
  expect(overBooking, 'no booking transferred more than its lender earned').toEqual([]);
  const { rows: overLender } = await db.execute<{ lender_id: string }>(sql`
    select p.lender_id from payout_transfers p where p.status in ('sent', 'reversed')
    group by p.lender_id
    having sum(p.amount_cents - p.reversed_cents) > coalesce((select sum(e.amount_cents) from earning_entries e
      where e.lender_id = p.lender_id), 0)`);
  expect(overLender, 'no lender transferred more than they earned').toEqual([]);
  const { rows: differ } = await db.execute<{ destination: string; ours: number; provider: number }>(sql`
    with ours as (
      select coalesce(p.destination_account_id, a.account_id) as destination,
             sum(p.amount_cents - p.reversed_cents)::int as cents
      from payout_transfers p join connected_accounts a on a.user_id = p.lender_id
      where p.status in ('sent', 'reversed') group by 1),
    theirs as (
      select destination, sum(amount_cents - amount_reversed_cents)::int as cents
      from test_transfers group by destination)
    select coalesce(o.destination, p.destination) as destination, coalesce(o.cents, 0) as ours,
           coalesce(p.cents, 0) as provider
    from ours o full join theirs p on p.destination = o.destination
    where coalesce(o.cents, 0) <> coalesce(p.cents, 0)`);
  expect(differ, 'our sent transfers are the provider’s, per destination').toEqual([]);
}

/**
 * Card disputes (decision 059): what our rows say was withdrawn and reinstated equals the provider's
 * dispute, and no lender owes less than nothing, nor more for a dispute than its reversal.
 */
export async function expectDisputesBalanced(t: TestContext): Promise<void> {
  const { rows: disputes } = await t.database.db.execute<{ id: string }>(sql`
    select d.id from disputes d join test_disputes p on p.id = d.provider_dispute_id
    where d.withdrawn_cents <> p.withdrawn_cents or d.reinstated_cents <> p.reinstated_cents
       or d.fee_cents <> p.fee_cents or d.status <> p.status`);
  expect(disputes, 'every dispute says what the provider withdrew and reinstated').toEqual([]);
  const { rows: negative } = await t.database.db.execute<{ lender_id: string }>(sql`
    select lender_id from lender_receivables group by lender_id having sum(amount_cents) < 0`);
  expect(negative, 'no lender owes less than nothing').toEqual([]);
  const { rows: over } = await t.database.db.execute<{ id: string }>(sql`
    select d.id from disputes d join lender_receivables r on r.dispute_id = d.id
    group by d.id, d.reversal_cents having sum(r.amount_cents) > coalesce(d.reversal_cents, 0)`);
  expect(over, 'no dispute owed for more than its reversal').toEqual([]);
}

/**
 * The journal (decision 058): every transaction adds up to zero, every booking's equation holds, and
 * it says what the billing rows, the earning entries and the provider say, per payment and per lender.
 */
export async function expectJournalBalanced(
  t: TestContext,
  provider: { id: string; provider: number }[],
): Promise<void> {
  const db = t.database.db;
  expect(await journal.unbalancedTransactions(db), 'every journal transaction adds up to zero').toEqual([]);
  const broken = (await journal.booksOfBookings(db))
    .map((b) => ({ ...b, ...bookingEquation(b) }))
    .filter((b) => b.cashCents !== b.accountedCents);
  expect(broken, 'captured − refunded − disputed = transferred − reversed + fees + payable + held').toEqual(
    [],
  );
  expect(
    await journal.intentsDisagreeingWithRows(db),
    'the journal says what the billing rows and earning entries say',
  ).toEqual([]);
  expect(
    await journal.lendersDisagreeingWithEntries(db),
    'each lender’s journalled earnings are their earning entries',
  ).toEqual([]);
  const cash = new Map((await journal.providerCashByIntent(db)).map((r) => [r.paymentIntentId, r.cents]));
  const differ = provider
    .map((r) => ({ id: r.id, provider: r.provider, journal: cash.get(r.id) ?? 0 }))
    .filter((r) => r.provider !== r.journal);
  expect(differ, 'the journal says what the provider holds for every payment').toEqual([]);
  expect(
    await journal.feesDisagreeingWithShare(db),
    'the journal’s fees of every charged payment are the platform’s share of it',
  ).toEqual([]);
}
