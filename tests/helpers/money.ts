import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
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
}
