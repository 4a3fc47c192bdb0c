import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/server/clock.ts';
import { testConfig } from '../../src/server/config.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { testPaymentIntents } from '../../src/server/db/schema/test-payments.ts';
import { settlePayments, stepStatuses } from '../helpers/money.ts';
import { transfersOf } from '../helpers/payouts.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

// The release of an unanswered return is the server's own timed job (composition/jobs.ts),
// not something a test calls: with the jobs on and the app's clock moved 48 hours on, the deposit comes
// back by itself, once. On both databases.

const clock = fixedClock(new Date());
const t = setupTestApp({ jobs: { ...testConfig().jobs, enabled: true, intervalMs: 100 } }, { clock });
const db = () => t.database.db;

describe('the deposit release job', () => {
  it('completes a return the lender left unanswered for 48 hours and refunds the deposit once', async () => {
    const s = await scenario(t);
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(2));
    const id = r.reservation.id as string;
    expect((await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie)).statusCode).toBe(200);
    expect((await t.put(`/api/reservations/${id}`, { status: 'active' }, s.borrower.cookie)).statusCode).toBe(
      200,
    );
    expect(
      (await t.put(`/api/reservations/${id}`, { status: 'returned' }, s.borrower.cookie)).statusCode,
    ).toBe(200);
    const status = async () =>
      (await db().select().from(reservations).where(eq(reservations.id, id)))[0]!.status;
    // (The boundary itself, a minute early and on time, is tested on the service in deposit-claims.test.ts.)
    expect(await status()).toBe('returned');
    clock.advance(48 * 3600_000);
    await waitFor(async () => (await status()) === 'completed', 15_000, 'the job to release the deposit');
    // The jobs' own worker runs the refund too: whichever takes the step, it is made once.
    const refunded = async () => {
      await settlePayments(t);
      const [intent] = await db()
        .select()
        .from(testPaymentIntents)
        .where(eq(testPaymentIntents.id, r.paymentIntentId!));
      return intent!.amountRefundedCents;
    };
    await waitFor(async () => (await refunded()) === 2000, 15_000, 'the deposit refund');
    expect(await refunded()).toBe(2000);
    // The worker that made the refund settles its step (and the billing row) in its own commit after
    // the provider answered: the books are compared once it has.
    await waitFor(
      async () =>
        (await stepStatuses(t, r.paymentIntentId!)).every((step) => !/:(pending|running|failed)$/.test(step)),
      15_000,
      'the refund step to be settled',
    );
    // The same worker sends the lender the transfers the return made due: one it has made at the
    // provider is recorded as sent in its own commit, so the books wait for that too.
    await waitFor(
      async () =>
        (await transfersOf(t, id)).every((tr) => tr.status !== 'scheduled' || tr.releaseAt > clock.now()),
      15_000,
      'the due transfers to be sent',
    );
  });
});
