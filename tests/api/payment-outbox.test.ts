import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { buildApp } from '../../src/server/composition/app.ts';
import type { Db } from '../../src/server/db/client.ts';
import { paymentIntents, paymentSteps } from '../../src/server/db/schema/payments.ts';
import { testPaymentIntents } from '../../src/server/db/schema/test-payments.ts';
import * as stepQueries from '../../src/server/features/payment-steps/queries.ts';
import { paymentStepService } from '../../src/server/features/payment-steps/service.ts';
import { createSignedInUser } from '../factories.ts';
import { billingOf, bookingAt, providerIntent } from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments, stepDeps, stepStatuses } from '../helpers/money.ts';
import { day, quoteFor, scenario, VISA, VISA_3DS } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

// Provider calls never lost (decision 012): a provider that fails and comes back, one that
// acts but whose answer is lost, one that keeps failing (moderators see it and retry), a crash
// between the commit and the provider call, authorisations nobody used, reconciliation, and the
// 3-D Secure return. After every test billing rows equal the provider's money (setupTestApp).

let flaky!: ReturnType<typeof flakyProvider>;
const MODERATOR = 'payments.moderator@stanford.edu';
const t = setupTestApp(
  // The outbox's retries and recovery; the fee's own amounts are in service-fee.test.ts.
  { adminEmails: [MODERATOR], ...WITHOUT_SERVICE_FEE },
  {
    payments: (db) => {
      flaky = flakyProvider(new TestPaymentProvider(db));
      return flaky.provider;
    },
  },
);
const db = () => t.database.db;
const retryLimit = () => t.config.payments.retryLimit;

const billing = (reservationId: string) => billingOf(t, { reservationId }, 'kind:status:amount');

async function stepOf(intentId: string, kind: string) {
  const [row] = await db()
    .select()
    .from(paymentSteps)
    .where(sql`${paymentSteps.paymentIntentId} = ${intentId} and ${paymentSteps.kind} = ${kind}`);
  return row!;
}

/** A paid request ($10 rental + $20 deposit), approved by the lender. */
// Strict: the return before the last day (an early return, decision 034) refunds no rental here.
const approvedRequest = () => bookingAt(t, 'approved', { policy: 'strict', settle: false });

describe('a provider that fails', () => {
  it('is tried again until it answers: three outages, then the capture is made once', async () => {
    const { id, intent } = await approvedRequest();
    flaky.failNext('capturePaymentIntent', 3);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await settlePayments(t);
      const step = await stepOf(intent, 'capture');
      expect(step).toMatchObject({ status: 'pending', attempts: attempt });
      expect(step.lastError).toContain('ECONNREFUSED');
      // Nothing was charged, so nothing says it was.
      expect(await billing(id)).toEqual(['earning:pending:1000', 'payment:pending:3000']);
    }
    await settlePayments(t);
    expect(await stepOf(intent, 'capture')).toMatchObject({
      status: 'succeeded',
      attempts: 4,
      lastError: null,
    });
    expect(await billing(id)).toEqual(['earning:completed:1000', 'payment:completed:3000']);
    expect((await providerIntent(t, intent)).amountReceivedCents).toBe(3000);
  });

  it('acts but loses its answer: the retry finds the refund made and does not refund twice', async () => {
    const { lender, borrower, id, intent } = await approvedRequest();
    await settlePayments(t);
    const code = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0].pickupCode;
    await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: code }, lender.cookie);
    // The borrower says it is back, the lender confirms it came back in good condition.
    await t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    flaky.loseAnswers('refund', 1);
    await settlePayments(t);
    // The provider refunded; we did not hear it. Our row still waits, the provider says refunded.
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    expect(await billing(id)).toContain('refund:pending:2000');
    const refundsBefore = flaky.calls.refund;
    await settlePayments(t);
    expect(flaky.calls.refund).toBe(refundsBefore);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    expect(await billing(id)).toEqual([
      'earning:completed:1000',
      'payment:completed:3000',
      'refund:refunded:2000',
    ]);
  });

  it('makes a refund whose record is cut off: the step is pending again at once, not running for minutes', async () => {
    const { lender, borrower, id, intent } = await approvedRequest();
    await settlePayments(t);
    const code = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0].pickupCode;
    await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: code }, lender.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    // The provider refunds; the transaction that records it loses its connection (pg_terminate_backend).
    const cutOnce: Db = Object.create(db());
    let cuts = 1;
    cutOnce.transaction = ((...args: Parameters<Db['transaction']>) => {
      if (cuts-- > 0) {
        return Promise.reject(
          Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
        );
      }
      return db().transaction(...args);
    }) as typeof cutOnce.transaction;
    const deps = { ...stepDeps(t), db: cutOnce };
    await expect(paymentStepService.runIntent(deps, intent)).rejects.toThrow('administrator command');
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    // Given back, not held under its lease: the next attempt (the job's retry) runs it now.
    expect(await stepOf(intent, 'refund')).toMatchObject({ status: 'pending', lockedUntil: null });
    const refundsBefore = flaky.calls.refund;
    await paymentStepService.runIntent(stepDeps(t), intent);
    expect(flaky.calls.refund).toBe(refundsBefore);
    expect(await stepOf(intent, 'refund')).toMatchObject({ status: 'succeeded' });
    expect(await billing(id)).toEqual([
      'earning:completed:1000',
      'payment:completed:3000',
      'refund:refunded:2000',
    ]);
    const { mismatched } = await paymentStepService.reconcile(stepDeps(t));
    expect(mismatched).toBe(0);
  });

  it('keeps failing: the step fails for good, the lender is told, moderators see it and retry it', async () => {
    const moderator = await createSignedInUser(db(), { email: MODERATOR });
    const { lender, borrower, id, intent } = await approvedRequest();
    flaky.failNext('capturePaymentIntent', 1000);
    for (let round = 0; round <= retryLimit() + 1; round++) await settlePayments(t);
    const failed = await stepOf(intent, 'capture');
    expect(failed).toMatchObject({ status: 'failed', attempts: retryLimit() + 1 });
    expect(await billing(id)).toEqual(['earning:failed:1000', 'payment:failed:3000']);
    expect((await t.get('/api/notifications', lender.cookie)).json().notifications[0]).toMatchObject({
      title: 'Payment problem',
      relatedReservationId: id,
    });

    // Moderators only.
    expect((await t.get('/api/admin/payments')).statusCode).toBe(401);
    expect((await t.get('/api/admin/payments', borrower.cookie)).statusCode).toBe(403);
    const seen = await t.get('/api/admin/payments', moderator.cookie);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().steps).toContainEqual(
      expect.objectContaining({
        id: failed.id,
        kind: 'capture',
        purpose: 'approval',
        status: 'failed',
        amount: '30.00',
        itemTitle: 'Cordless drill',
        lastError: expect.stringContaining('ECONNREFUSED'),
      }),
    );
    expect(
      (await t.post(`/api/admin/payment-steps/${failed.id}/retry`, {}, borrower.cookie)).statusCode,
    ).toBe(403);

    flaky.heal();
    expect(
      (await t.post(`/api/admin/payment-steps/${failed.id}/retry`, {}, moderator.cookie)).statusCode,
    ).toBe(200);
    // A step that is not failed cannot be retried again; an unknown one is a 404.
    expect(
      (await t.post(`/api/admin/payment-steps/${failed.id}/retry`, {}, moderator.cookie)).statusCode,
    ).toBe(409);
    expect(
      (
        await t.post(
          '/api/admin/payment-steps/00000000-0000-4000-8000-000000000000/retry',
          {},
          moderator.cookie,
        )
      ).statusCode,
    ).toBe(404);
    await settlePayments(t);
    expect(await stepOf(intent, 'capture')).toMatchObject({ status: 'succeeded' });
    expect(await billing(id)).toEqual(['earning:completed:1000', 'payment:completed:3000']);
    expect((await t.get('/api/admin/payments', moderator.cookie)).json().steps).not.toContainEqual(
      expect.objectContaining({ id: failed.id }),
    );
  });

  it('gives up at once when the provider refuses for good (the authorisation expired)', async () => {
    const { id, intent } = await approvedRequest();
    // The card network let the authorisation lapse before the capture ran.
    await db()
      .update(testPaymentIntents)
      .set({ status: 'canceled' })
      .where(eq(testPaymentIntents.id, intent));
    await settlePayments(t);
    expect(await stepOf(intent, 'capture')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('can no longer be charged'),
    });
    expect(await billing(id)).toEqual(['earning:failed:1000', 'payment:failed:3000']);
  });

  it('cancels a capture that has not run yet when the reservation is cancelled, and releases instead', async () => {
    const { lender, id, intent } = await approvedRequest();
    await t.put(`/api/reservations/${id}`, { status: 'cancelled' }, lender.cookie);
    await settlePayments(t);
    expect(await stepStatuses(t, intent)).toEqual(['capture:superseded', 'release:succeeded']);
    expect((await providerIntent(t, intent)).status).toBe('canceled');
    expect(await billing(id)).toEqual(['payment:refunded:3000']);
  });
});

describe('a crash between the commit and the provider call', () => {
  it('loses nothing: another process takes the committed step and makes the call', async () => {
    // This file's app never runs jobs (JOBS_ENABLED is off in tests): its approval commits the status
    // and the step, and the provider is not called, as if the process died right after the commit.
    const { id, intent } = await approvedRequest();
    // A second one died while holding a step: claimed, lease run out, provider never reached.
    const second = await approvedRequest();
    const held = await stepOf(second.intent, 'capture');
    await stepQueries.claimStep(db(), held.id, -1);
    expect(await stepStatuses(t, intent)).toEqual(['capture:pending']);

    // A new process on the same database, with its job worker on.
    const restarted = await buildApp({
      config: { ...t.config, jobs: { ...t.config.jobs, enabled: true, pollingSeconds: 0.5 } },
      database: t.database,
      payments: new TestPaymentProvider(db()),
      logger: false,
    });
    await restarted.ready();
    try {
      // The lost runner's step had its job consumed: the sweeper sends it again.
      await paymentStepService.resendStuck(stepDeps(t), 0);
      await waitFor(async () => (await stepStatuses(t, intent))[0] === 'capture:succeeded', 20_000);
      await waitFor(async () => (await stepStatuses(t, second.intent))[0] === 'capture:succeeded', 20_000);
    } finally {
      await restarted.close();
    }
    expect(await billing(id)).toEqual(['earning:completed:1000', 'payment:completed:3000']);
    expect((await providerIntent(t, intent)).amountReceivedCents).toBe(3000);
    expect((await providerIntent(t, second.intent)).amountReceivedCents).toBe(3000);
  });
});

describe('the job queue', () => {
  it('retries a failing step by itself, with the job queue’s backoff, until the provider answers', async () => {
    const worker = await buildApp({
      config: {
        ...t.config,
        jobs: { ...t.config.jobs, enabled: true, pollingSeconds: 0.5 },
        payments: { ...t.config.payments, retryDelaySeconds: 1 },
      },
      database: t.database,
      payments: flaky.provider,
      logger: false,
    });
    await worker.ready();
    try {
      flaky.failNext('capturePaymentIntent', 2);
      const { id, intent } = await approvedRequest();
      await waitFor(async () => (await stepOf(intent, 'capture')).status === 'succeeded', 30_000);
      expect(await stepOf(intent, 'capture')).toMatchObject({ status: 'succeeded', attempts: 3 });
      expect(await billing(id)).toEqual(['earning:completed:1000', 'payment:completed:3000']);
      expect((await providerIntent(t, intent)).amountReceivedCents).toBe(3000);
    } finally {
      flaky.heal();
      await worker.close();
    }
  }, 60_000);
});

describe('authorisations nobody used', () => {
  it('are released after a while; a request that comes after is refused; fresh ones are kept', async () => {
    const { borrower, item } = await scenario(t);
    const quote = await quoteFor(t, borrower.cookie, item.id, day(2), day(4));
    const { paymentIntentId } = quote.json();
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, borrower.cookie);
    // The tab was closed after paying. An hour (the setting) has not passed: kept.
    expect(await paymentStepService.releaseAbandoned(stepDeps(t), 60 * 60_000)).toBe(0);
    expect(await paymentStepService.releaseAbandoned(stepDeps(t), 0)).toBe(1);
    await settlePayments(t);
    expect((await providerIntent(t, paymentIntentId)).status).toBe('canceled');
    const [recorded] = await db().select().from(paymentIntents).where(eq(paymentIntents.id, paymentIntentId));
    expect(recorded!.status).toBe('abandoned');
    const late = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(4), stripePaymentIntentId: paymentIntentId },
      borrower.cookie,
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('PAYMENT_RELEASED');
  });

  it('never both: a request and the sweeper at once, twenty times, either book or release', async () => {
    const { borrower, item } = await scenario(t);
    for (let round = 0; round < 20; round++) {
      const from = 2 + round * 3;
      const { paymentIntentId } = (
        await quoteFor(t, borrower.cookie, item.id, day(from), day(from + 1))
      ).json();
      await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, borrower.cookie);
      const [request, released] = await Promise.all([
        t.post(
          '/api/reservations',
          {
            itemId: item.id,
            startDate: day(from),
            endDate: day(from + 1),
            stripePaymentIntentId: paymentIntentId,
          },
          borrower.cookie,
        ),
        paymentStepService.releaseAbandoned(stepDeps(t), 0),
      ]);
      await settlePayments(t);
      const booked = request.statusCode === 201;
      expect(booked || request.statusCode === 409).toBe(true);
      const [recorded] = await db()
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.id, paymentIntentId));
      expect(recorded!.status, `round ${round}`).toBe(booked ? 'used' : 'abandoned');
      expect((await providerIntent(t, paymentIntentId)).status).toBe(
        booked ? 'requires_capture' : 'canceled',
      );
      if (booked) expect(released).toBe(0);
    }
  }, 120_000);
});

describe('reconciliation', () => {
  it('finds money the provider moved without us, shows it to moderators, and closes it when resolved', async () => {
    const moderator = await createSignedInUser(db(), { email: `other.${MODERATOR}` });
    t.config.adminEmails.push(`other.${MODERATOR}`);
    const { intent } = await approvedRequest();
    const deps = stepDeps(t);
    // Steps under way explain any difference: not compared yet.
    expect((await paymentStepService.reconcile(deps)).mismatched).toBe(0);
    await settlePayments(t);
    expect(await paymentStepService.reconcile(deps)).toMatchObject({ mismatched: 0 });

    // Someone refunded $5 at the provider, and no webhook told us.
    await db()
      .update(testPaymentIntents)
      .set({ amountRefundedCents: 500 })
      .where(eq(testPaymentIntents.id, intent));
    await db().update(paymentIntents).set({ reconciledAt: null }).where(eq(paymentIntents.id, intent));
    expect((await paymentStepService.reconcile(deps)).mismatched).toBe(1);
    const seen = (await t.get('/api/admin/payments', moderator.cookie)).json().mismatches;
    const finding = seen.find((m: { paymentIntentId: string }) => m.paymentIntentId === intent);
    expect(finding).toMatchObject({ billingNet: '30.00', providerNet: '25.00', itemTitle: 'Cordless drill' });
    // Found again: still one finding.
    await db().update(paymentIntents).set({ reconciledAt: null }).where(eq(paymentIntents.id, intent));
    await paymentStepService.reconcile(deps);
    const again = (await t.get('/api/admin/payments', moderator.cookie)).json().mismatches;
    expect(again.filter((m: { paymentIntentId: string }) => m.paymentIntentId === intent)).toHaveLength(1);

    const bad = await t.post(
      `/api/admin/payment-mismatches/${finding.id}/resolve`,
      { note: '' },
      moderator.cookie,
    );
    expect(bad.statusCode).toBe(400);
    const resolved = await t.post(
      `/api/admin/payment-mismatches/${finding.id}/resolve`,
      { note: 'Goodwill refund by support; recorded by hand.' },
      moderator.cookie,
    );
    expect(resolved.statusCode).toBe(200);
    expect((await t.get('/api/admin/payments', moderator.cookie)).json().mismatches).not.toContainEqual(
      expect.objectContaining({ id: finding.id }),
    );
    // Put the provider back as it was, so this test ends balanced.
    await db()
      .update(testPaymentIntents)
      .set({ amountRefundedCents: 0 })
      .where(eq(testPaymentIntents.id, intent));
  });
});

describe('the 3-D Secure return to /reservations', () => {
  it('makes the request from what the payment was for, once, for its borrower only', async () => {
    const { borrower, stranger, item, lender } = await scenario(t);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(3), day(5))).json();
    const confirm = await t.post(
      '/api/payments/test/confirm',
      { paymentIntentId, card: VISA_3DS },
      borrower.cookie,
    );
    expect(confirm.json()).toMatchObject({
      status: 'requires_action',
      nextActionUrl: `/payments/test/authenticate?payment_intent=${paymentIntentId}`,
    });
    // Not authorised until the bank says so.
    expect(
      (await t.post('/api/reservations/complete-payment', { paymentIntentId }, borrower.cookie)).statusCode,
    ).toBe(402);
    const bank = await t.post(
      '/api/payments/test/authenticate',
      { paymentIntentId, approved: true },
      borrower.cookie,
    );
    expect(bank.json().status).toBe('requires_capture');

    expect(
      (await t.post('/api/reservations/complete-payment', { paymentIntentId }, stranger.cookie)).statusCode,
    ).toBe(404);
    const back = await t.post('/api/reservations/complete-payment', { paymentIntentId }, borrower.cookie);
    expect(back.statusCode).toBe(201);
    expect(back.json()).toMatchObject({
      created: true,
      reservation: { itemId: item.id, startDate: day(3), endDate: day(5), status: 'pending' },
    });
    // A reload of /reservations comes back with the same payment: the request exists already.
    const reload = await t.post('/api/reservations/complete-payment', { paymentIntentId }, borrower.cookie);
    expect(reload.statusCode).toBe(200);
    expect(reload.json()).toMatchObject({ created: false, reservation: { id: back.json().reservation.id } });
    expect((await t.get('/api/reservations', lender.cookie)).json().reservations).toHaveLength(1);
    expect((await t.post('/api/reservations/complete-payment', {}, borrower.cookie)).statusCode).toBe(400);
    expect(
      (await t.post('/api/reservations/complete-payment', { paymentIntentId: 'pi_nope' }, borrower.cookie))
        .statusCode,
    ).toBe(404);
  });

  it('does not make a request when the cardholder failed to authenticate', async () => {
    const { borrower, item } = await scenario(t);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(3), day(5))).json();
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA_3DS }, borrower.cookie);
    const bank = await t.post(
      '/api/payments/test/authenticate',
      { paymentIntentId, approved: false },
      borrower.cookie,
    );
    expect(bank.json().status).toBe('requires_payment_method');
    const back = await t.post('/api/reservations/complete-payment', { paymentIntentId }, borrower.cookie);
    expect(back.statusCode).toBe(402);
    expect((await t.get('/api/reservations', borrower.cookie)).json().reservations).toEqual([]);
  });
});

describe('a request with its payment', () => {
  it('asks the provider about the payment while the booking is checked, and books nothing, saying so, when the provider does not answer', async () => {
    const { borrower, item } = await scenario(t);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(2), day(3))).json();
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, borrower.cookie);
    const request = (itemId: string) =>
      t.post(
        '/api/reservations',
        { itemId, startDate: day(2), endDate: day(3), stripePaymentIntentId: paymentIntentId },
        borrower.cookie,
      );
    // The provider is asked before the check has answered: even a request the check refuses asked it.
    const asked = flaky.calls.retrievePaymentIntent;
    const gone = await request('00000000-0000-4000-8000-000000000000');
    expect(gone.statusCode).toBe(404);
    expect(flaky.calls.retrievePaymentIntent).toBe(asked + 1);

    flaky.failNext('retrievePaymentIntent', 1);
    const unanswered = await request(item.id);
    expect(unanswered.statusCode).toBe(503);
    expect(unanswered.json().code).toBe('PROVIDER_UNAVAILABLE');
    const [kept] = await db().select().from(paymentIntents).where(eq(paymentIntents.id, paymentIntentId));
    expect(kept!.status).toBe('open');
    expect((await t.get('/api/reservations', borrower.cookie)).json().reservations).toEqual([]);

    const booked = await request(item.id);
    expect(booked.statusCode, booked.body).toBe(201);
    const [used] = await db().select().from(paymentIntents).where(eq(paymentIntents.id, paymentIntentId));
    expect(used).toMatchObject({ status: 'used', reservationId: booked.json().reservation.id });
  });
});
