import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { fixedClock } from '../../src/server/clock.ts';
import { testConfig } from '../../src/server/config.ts';
import { reservationExtensions } from '../../src/server/db/schema/extensions.ts';
import { paymentIntents } from '../../src/server/db/schema/payments.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { reminderService } from '../../src/server/features/reminders/service.ts';
import { extensionService, reservationService } from '../../src/server/features/reservations/service.ts';
import { campusMidnight } from '../../src/shared/calendar.ts';
import {
  askForMoreDays,
  billingOf,
  bookingAt,
  notices,
  providerIntent,
  providerSteps,
} from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { reservationDeps, settlePayments } from '../helpers/money.ts';
import { day, quoteFor, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 057: a card authorisation lasts about 7 days, so a request (or a request for more days)
// waits for the lender 6 days at most from when the card was authorised, whatever
// RESERVATION_EXPIRY_HOURS (a month here) or its dates allow. Then it lapses: both are told, the hold is
// released, and approving it is a clear 409, before the expiry job's round as after it. The lender is
// reminded before. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL; after every test our
// billing rows equal the provider's money (setupTestApp).

const EXPIRY_HOURS = 24 * 30;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let flaky!: ReturnType<typeof flakyProvider>;
const t = setupTestApp(
  { ...WITHOUT_SERVICE_FEE, jobs: { ...testConfig().jobs, reservationExpiryHours: EXPIRY_HOURS } },
  {
    payments: (db) => {
      flaky = flakyProvider(new TestPaymentProvider(db));
      return flaky.provider;
    },
  },
);
const db = () => t.database.db;

const deps = () => ({ ...reservationDeps(t), expiryHours: EXPIRY_HOURS });

/** Moves a request's card authorisation (and the request with it) `days` into the past. */
async function requestedDaysAgo(id: string, intentId: string, days: number) {
  const then = new Date(Date.now() - days * DAY);
  await db().update(reservations).set({ authorisedAt: then, createdAt: then }).where(eq(reservations.id, id));
  await db().update(paymentIntents).set({ createdAt: then }).where(eq(paymentIntents.id, intentId));
}

/** Moves a request for more days (and its card authorisation) `days` into the past. */
async function askedDaysAgo(id: string, days: number) {
  const then = new Date(Date.now() - days * DAY);
  await db()
    .update(reservationExtensions)
    .set({ authorisedAt: then, createdAt: then })
    .where(eq(reservationExtensions.id, id));
}

async function statusOf(id: string) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row!;
}

async function extensionOf(id: string) {
  const [row] = await db().select().from(reservationExtensions).where(eq(reservationExtensions.id, id));
  return row!;
}

describe('a request the lender has not answered while the card is held', () => {
  it('records when the card was authorised, and says the answer is due six days after it', async () => {
    const b = await bookingAt(t, 'requested', { days: { from: 20, to: 22 } });
    const row = await statusOf(b.id);
    const [intent] = await db().select().from(paymentIntents).where(eq(paymentIntents.id, b.intent));
    expect(row.authorisedAt).toEqual(intent!.createdAt);
    const view = (await t.get('/api/reservations', b.lender.cookie)).json().reservations[0];
    // A month of RESERVATION_EXPIRY_HOURS and a start 20 days ahead: the card decides.
    expect(view.respondBy).toBe(new Date(row.authorisedAt!.getTime() + 6 * DAY).toISOString());
  });

  it('tells the Reserve dialog by when a request made now is answered: its start day, the card held only close to it', async () => {
    const s = await scenario(t);
    // Decision 062: a start 20 days ahead holds nothing at the request, so no six days bound the answer.
    const far = await quoteFor(t, s.borrower.cookie, s.item.id, day(20), day(22));
    expect(far.statusCode, far.body).toBe(200);
    expect(far.json().answerBy).toBe(campusMidnight(day(21), t.config.campusTimeZone).toISOString());
    expect(far.json().authoriseFrom).toBe(campusMidnight(day(15), t.config.campusTimeZone).toISOString());
    const soon = await quoteFor(t, s.borrower.cookie, s.item.id, day(1), day(2));
    expect(soon.json().answerBy).toBe(campusMidnight(day(2), t.config.campusTimeZone).toISOString());
  });

  it('lapses at day 6: approving it is a 409 before the job and after it, both are told, the hold released', async () => {
    const b = await bookingAt(t, 'requested', { days: { from: 20, to: 22 } });
    await requestedDaysAgo(b.id, b.intent, 8);
    const early = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'AUTHORISATION_LAPSED' });
    expect(early.json().message).toMatch(/6 days/);
    // Nothing changed by the refusal: still pending, nothing charged.
    expect((await statusOf(b.id)).status).toBe('pending');
    expect(await providerSteps(t, b.intent)).toEqual([]);

    expect(await reservationService.expirePending(deps(), EXPIRY_HOURS)).toBe(1);
    await settlePayments(t);
    const row = await statusOf(b.id);
    expect(row.status).toBe('cancelled');
    expect(row.declineReason).toMatch(/6 days/);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'canceled', amountReceivedCents: 0 });
    expect(await billingOf(t, { intentId: b.intent })).toEqual([
      `payment:${row.depositCents + row.rentalCents}:refunded`,
    ]);
    const [toBorrower] = await notices(t, b.borrower.cookie, { id: b.id, type: 'reservation_expired' });
    const [toLender] = await notices(t, b.lender.cookie, { id: b.id, type: 'reservation_expired' });
    expect(toBorrower?.message).toMatch(/within 6 days.*hold was released/);
    expect(toLender?.message).toMatch(/6 days at most/);

    const late = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
    expect(late.statusCode).toBe(409);
    // A second round finds nothing more to do.
    expect(await reservationService.expirePending(deps(), EXPIRY_HOURS)).toBe(0);
  });

  it('is kept, and approvable, until the sixth day', async () => {
    const b = await bookingAt(t, 'requested', { days: { from: 20, to: 22 } });
    await requestedDaysAgo(b.id, b.intent, 5.9);
    await reservationService.expirePending(deps(), EXPIRY_HOURS);
    expect((await statusOf(b.id)).status).toBe('pending');
    const approve = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'succeeded' });
  });

  it('reminds the lender half a day before it lapses', async () => {
    const b = await bookingAt(t, 'requested', { days: { from: 20, to: 22 } });
    const authorisedAt = (await statusOf(b.id)).authorisedAt!;
    const reminderDeps = (at: Date) => ({
      db: db(),
      clock: fixedClock(at),
      timeZone: t.config.campusTimeZone,
      expiryHours: EXPIRY_HOURS,
    });
    expect(await reminderService.sendDue(reminderDeps(new Date(authorisedAt.getTime() + 5 * DAY)))).toBe(0);
    expect(
      await reminderService.sendDue(reminderDeps(new Date(authorisedAt.getTime() + 5.6 * DAY))),
    ).toBeGreaterThanOrEqual(1);
    const [reminder] = await notices(t, b.lender.cookie, { id: b.id, type: 'request_expiring' });
    expect(reminder?.message).toMatch(/unless you approve or decline it/);
  });

  it('of approvals and expiry rounds racing on a lapsed request, the expiry wins once and nothing is charged', async () => {
    const b = await bookingAt(t, 'requested', { days: { from: 20, to: 22 } });
    await requestedDaysAgo(b.id, b.intent, 8);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)),
      ...Array.from({ length: 3 }, () => reservationService.expirePending(deps(), EXPIRY_HOURS)),
    ]);
    const approvals = results.slice(0, 4) as { statusCode: number }[];
    const expiries = results.slice(4) as number[];
    for (const a of approvals) expect(a.statusCode).toBe(409);
    expect(expiries.reduce((sum, n) => sum + n, 0)).toBe(1);
    await settlePayments(t);
    expect((await statusOf(b.id)).status).toBe('cancelled');
    expect(await providerSteps(t, b.intent)).toEqual([
      `release:expiry:${(await providerIntent(t, b.intent)).amountCents}:succeeded`,
    ]);
  });

  it('keeps the release when the provider fails at first: the step is retried, and the books balance', async () => {
    const b = await bookingAt(t, 'requested', { days: { from: 20, to: 22 } });
    await requestedDaysAgo(b.id, b.intent, 8);
    expect(await reservationService.expirePending(deps(), EXPIRY_HOURS)).toBe(1);
    flaky.failNext('cancelPaymentIntent', 2);
    await settlePayments(t).catch(() => undefined);
    await settlePayments(t).catch(() => undefined);
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'canceled', amountReceivedCents: 0 });
  });
});

describe('a request for more days the lender has not answered while the card is held', () => {
  it('asked 8 days before its approval: it lapsed at day 6, both were told, the hold released, approving is a 409', async () => {
    const b = await bookingAt(t, 'approved', { days: { from: 1, to: 20 } });
    const ask = await askForMoreDays(t, b.borrower.cookie, b.id, day(22), '10.00');
    expect(ask.request?.statusCode, ask.request?.body).toBe(201);
    const extensionId = ask.extension.id as string;
    const recorded = await extensionOf(extensionId);
    expect(recorded.authorisedAt).not.toBeNull();
    // Its answer is due six days after the card was authorised, long before the booking's last day.
    const view = (await t.get('/api/reservations', b.lender.cookie)).json().reservations[0];
    expect(view.pendingExtension.respondBy).toBe(
      new Date(recorded.authorisedAt!.getTime() + 6 * DAY).toISOString(),
    );

    await askedDaysAgo(extensionId, 8);
    const early = await t.post(`/api/extensions/${extensionId}/approve`, {}, b.lender.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'AUTHORISATION_LAPSED' });
    expect((await statusOf(b.id)).endDate).toBe(day(20));

    const extensionDeps = reservationDeps(t);
    expect(await extensionService.expirePending(extensionDeps)).toBe(1);
    await settlePayments(t);
    expect((await extensionOf(extensionId)).status).toBe('expired');
    expect(await providerIntent(t, ask.paymentIntentId!)).toMatchObject({
      status: 'canceled',
      amountReceivedCents: 0,
    });
    expect(await billingOf(t, { intentId: ask.paymentIntentId! })).toEqual(['payment:1000:refunded']);
    const [toBorrower] = await notices(t, b.borrower.cookie, { id: b.id, type: 'extension_declined' });
    const [toLender] = await notices(t, b.lender.cookie, { id: b.id, type: 'extension_declined' });
    expect(toBorrower?.message).toMatch(/within 6 days/);
    expect(toLender?.message).toMatch(/6 days at most/);

    const late = await t.post(`/api/extensions/${extensionId}/approve`, {}, b.lender.cookie);
    expect(late.statusCode).toBe(409);
    expect((await statusOf(b.id)).endDate).toBe(day(20));
    expect(await extensionService.expirePending(extensionDeps)).toBe(0);
  });

  it('is kept, and approvable, before the sixth day', async () => {
    const b = await bookingAt(t, 'approved', { days: { from: 1, to: 20 } });
    const ask = await askForMoreDays(t, b.borrower.cookie, b.id, day(22), '10.00');
    await askedDaysAgo(ask.extension.id, 5.9);
    await extensionService.expirePending(reservationDeps(t));
    expect((await extensionOf(ask.extension.id)).status).toBe('pending');
    const approve = await t.post(`/api/extensions/${ask.extension.id}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    await settlePayments(t);
    expect((await statusOf(b.id)).endDate).toBe(day(22));
  });

  it('reminds the lender once, half a day before it lapses, however many rounds run at once', async () => {
    const b = await bookingAt(t, 'approved', { days: { from: 1, to: 20 } });
    const ask = await askForMoreDays(t, b.borrower.cookie, b.id, day(22), '10.00');
    const authorisedAt = (await extensionOf(ask.extension.id)).authorisedAt!;
    const at = (when: number) => ({
      ...reservationDeps(t),
      clock: fixedClock(new Date(authorisedAt.getTime() + when)),
    });
    expect(await extensionService.remindLapsing(at(5 * DAY))).toBe(0);
    const rounds = await Promise.all(
      Array.from({ length: 4 }, () => extensionService.remindLapsing(at(5.6 * DAY))),
    );
    expect(rounds.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await extensionService.remindLapsing(at(5.7 * DAY))).toBe(0);
    const [reminder] = await notices(t, b.lender.cookie, { id: b.id, type: 'extension_requested' });
    expect(reminder?.title).toBe('Request for more days expires soon');
    expect(reminder?.message).toMatch(/unless you approve or decline it/);
    const lenderNotices = await notices(t, b.lender.cookie, { id: b.id, type: 'extension_requested' });
    // The request's own notice, and one reminder.
    expect(lenderNotices).toHaveLength(2);
    await t.post(`/api/extensions/${ask.extension.id}/decline`, {}, b.lender.cookie);
    await settlePayments(t);
  });
});
