import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { disputes } from '../../src/server/db/schema/disputes.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { paymentEvents } from '../../src/server/db/schema/test-payments.ts';
import { disputeService } from '../../src/server/features/disputes/service.ts';
import { createSignedInUser } from '../factories.ts';
import { deliverWebhook, signedWebhook, stripeEvent } from '../helpers/fake-stripe.ts';
import { settlePayments, stepStatuses } from '../helpers/money.ts';
import { day, quoteFor, scenario } from '../helpers/reservation-fixtures.ts';
import { FAKE_VISA, setupStripeApp } from '../helpers/stripe-app.ts';
import { WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

// Stripe's dispute events (a local fake Stripe through the real SDK): each event only names the
// dispute, which is read again from Stripe, so a replay changes nothing twice, events in any order end
// in Stripe's state, a bad signature is refused with nothing done, and a dispute that is not ours is
// acknowledged and left alone. Evidence goes to Stripe as an update with submit=true. On both databases.

const SECRET = 'whsec_dispute_secret';
const MODERATOR = 'webhook.moderator@stanford.edu';
const { fake, t, deliver } = await setupStripeApp({
  webhookSecret: SECRET,
  config: { ...WITHOUT_SERVICE_FEE, adminEmails: [MODERATOR] },
});
const db = () => t.database.db;
let moderator: Awaited<ReturnType<typeof createSignedInUser>>;

beforeAll(async () => {
  moderator = await createSignedInUser(db(), { email: MODERATOR });
});

let eventCounter = 0;
async function send(type: string, disputeId: string, id = `evt_dispute_${++eventCounter}`) {
  const response = await deliver(stripeEvent(id, type, fake.dispute(disputeId)));
  expect(response.statusCode, response.body).toBe(200);
  return id;
}

/** A borrow paid at (fake) Stripe and approved; `settle`: our capture step has run. */
async function stripeBorrow(settle = true) {
  const s = await scenario(t, { cancellationPolicy: 'strict' });
  const { paymentIntentId } = (await quoteFor(t, s.borrower.cookie, s.item.id, day(1), day(3))).json();
  fake.authorise(paymentIntentId, FAKE_VISA);
  const created = await t.post(
    '/api/reservations',
    { itemId: s.item.id, startDate: day(1), endDate: day(3), stripePaymentIntentId: paymentIntentId },
    s.borrower.cookie,
  );
  expect(created.statusCode).toBe(201);
  const id = created.json().reservation.id as string;
  expect((await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie)).statusCode).toBe(200);
  if (settle) await settlePayments(t);
  return { ...s, id, intent: paymentIntentId as string };
}

const disputeRow = async (providerId: string) =>
  (await db().select().from(disputes).where(eq(disputes.providerDisputeId, providerId)))[0];

describe('dispute webhooks', () => {
  it('records a dispute once however often the event comes, and tells the moderators once', async () => {
    const { id, intent } = await stripeBorrow();
    const dp = fake.openDispute(intent, { reason: 'product_not_received' });
    const event = await send('charge.dispute.created', dp);
    await send('charge.dispute.created', dp, event);
    await send('charge.dispute.funds_withdrawn', dp);
    expect(await disputeRow(dp)).toMatchObject({
      reservationId: id,
      status: 'needs_response',
      reason: 'product_not_received',
      amountCents: 3000,
      withdrawnCents: 3000,
      feeCents: 1500,
    });
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, event))).toHaveLength(1);
    const told = (
      await db().select().from(notifications).where(eq(notifications.userId, moderator.user.id))
    ).filter((n) => n.relatedReservationId === id);
    expect(told).toHaveLength(1);
    expect(await disputeService.freezesTransfers(db(), id)).toBe(true);
  });

  it('ends in Stripe’s state whatever order the events come in', async () => {
    const { id, intent } = await stripeBorrow();
    const dp = fake.openDispute(intent);
    fake.closeDispute(dp, 'won');
    // The closing events arrive first; the created one last, late.
    await send('charge.dispute.funds_reinstated', dp);
    await send('charge.dispute.closed', dp);
    await send('charge.dispute.funds_withdrawn', dp);
    await send('charge.dispute.created', dp);
    await send('charge.dispute.updated', dp);
    expect(await disputeRow(dp)).toMatchObject({
      status: 'won',
      outcome: 'won',
      withdrawnCents: 3000,
      reinstatedCents: 3000,
      feeCents: 0,
    });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(false);
  });

  it('follows a dispute from inquiry to withdrawal to loss, event by event', async () => {
    const { id, intent } = await stripeBorrow();
    const dp = fake.openDispute(intent, { withdraw: false });
    await send('charge.dispute.created', dp);
    expect(await disputeRow(dp)).toMatchObject({ status: 'warning_needs_response', withdrawnCents: 0 });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(true);
    fake.closeDispute(dp, 'lost');
    await send('charge.dispute.closed', dp);
    expect(await disputeRow(dp)).toMatchObject({ status: 'lost', outcome: 'lost' });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(true);
  });

  it('takes a dispute that arrives before our capture step settled, and after it', async () => {
    const { id, intent } = await stripeBorrow(false);
    // Stripe captures; its answers are lost, so our step has not settled when the dispute comes.
    fake.failNext(/\/capture$/, 3, 'lose');
    await settlePayments(t);
    expect(fake.intent(intent).status).toBe('succeeded');
    const dp = fake.openDispute(intent);
    await send('charge.dispute.created', dp);
    expect(await stepStatuses(t, intent)).not.toContain('capture:succeeded');
    expect(await disputeRow(dp)).toMatchObject({ reservationId: id, withdrawnCents: 3000 });
    await waitFor(
      async () => {
        await settlePayments(t);
        return (await stepStatuses(t, intent)).includes('capture:succeeded');
      },
      10_000,
      'the capture step to settle',
    );
    await send('charge.dispute.updated', dp);
    expect(await disputeRow(dp)).toMatchObject({
      reservationId: id,
      withdrawnCents: 3000,
      status: 'needs_response',
    });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(true);
  });

  it('answers 503 while Stripe is down, so Stripe delivers the event again, and applies it then', async () => {
    const { id, intent } = await stripeBorrow();
    const dp = fake.openDispute(intent);
    const { payload, signature } = signedWebhook(
      stripeEvent('evt_dispute_outage', 'charge.dispute.created', fake.dispute(dp)),
      SECRET,
    );
    fake.failNext(/^\/v1\/disputes\//, 1, 500);
    const failed = await deliverWebhook(t.app, payload, { 'stripe-signature': signature });
    expect(failed.statusCode).toBe(503);
    expect(await disputeRow(dp)).toBeUndefined();
    expect(
      await db().select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_dispute_outage')),
    ).toHaveLength(0);
    const again = await deliverWebhook(t.app, payload, { 'stripe-signature': signature });
    expect(again.statusCode).toBe(200);
    expect(await disputeRow(dp)).toMatchObject({ reservationId: id, withdrawnCents: 3000 });
  });

  it('refuses a bad signature with nothing recorded', async () => {
    const { intent } = await stripeBorrow();
    const dp = fake.openDispute(intent);
    const { payload } = signedWebhook(
      stripeEvent('evt_forged', 'charge.dispute.created', fake.dispute(dp)),
      SECRET,
    );
    const forged = signedWebhook(JSON.parse(payload), 'whsec_someone_else');
    const response = await deliverWebhook(t.app, payload, { 'stripe-signature': forged.signature });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('BAD_SIGNATURE');
    expect(await disputeRow(dp)).toBeUndefined();
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_forged'))).toHaveLength(0);
  });

  it('acknowledges a dispute Stripe does not know, or of a payment that is not ours, and records none', async () => {
    const { payload, signature } = signedWebhook(
      stripeEvent('evt_unknown_dispute', 'charge.dispute.created', { id: 'dp_nowhere', object: 'dispute' }),
      SECRET,
    );
    expect((await deliverWebhook(t.app, payload, { 'stripe-signature': signature })).statusCode).toBe(200);
    expect(await disputeRow('dp_nowhere')).toBeUndefined();

    // A payment made at Stripe outside CampusLoop.
    const { borrower, item } = await scenario(t);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(1), day(2))).json();
    fake.authorise(paymentIntentId, FAKE_VISA);
    const dp = fake.openDispute(paymentIntentId);
    await send('charge.dispute.created', dp);
    expect(await disputeRow(dp)).toBeUndefined();
  });
});

describe('evidence at Stripe', () => {
  it('is sent as an update of the dispute with submit=true, then the dispute is under review', async () => {
    const { intent } = await stripeBorrow();
    const dp = fake.openDispute(intent);
    await send('charge.dispute.created', dp);
    const row = (await disputeRow(dp))!;
    const sent = await t.post(
      `/api/admin/disputes/${row.id}/evidence`,
      { note: 'Handed over in person.' },
      moderator.cookie,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().dispute.status).toBe('under_review');
    const update = fake.requests.find((r) => r.method === 'POST' && r.path === `/v1/disputes/${dp}`)!;
    expect(update.body.get('submit')).toBe('true');
    expect(update.body.get('evidence[uncategorized_text]')).toContain('Handed over in person.');
    expect(update.body.get('evidence[product_description]')).toContain('Cordless drill');
    expect(update.headers['idempotency-key']).toBe(`dispute-evidence-${dp}-0`);
    expect(fake.dispute(dp).evidence_details).toMatchObject({ submission_count: 1 });
  });

  it('answers 503 when Stripe does not answer, and nothing is recorded as sent', async () => {
    const { intent } = await stripeBorrow();
    const dp = fake.openDispute(intent);
    await send('charge.dispute.created', dp);
    const row = (await disputeRow(dp))!;
    fake.failNext(/^\/v1\/disputes\//, 1, 500);
    const failed = await t.post(`/api/admin/disputes/${row.id}/evidence`, {}, moderator.cookie);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().code).toBe('PROVIDER_UNAVAILABLE');
    expect(await disputeRow(dp)).toMatchObject({ status: 'needs_response', evidenceSubmittedAt: null });
    const sent = await t.post(`/api/admin/disputes/${row.id}/evidence`, {}, moderator.cookie);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(fake.dispute(dp).evidence_details).toMatchObject({ submission_count: 1 });
  });
});
