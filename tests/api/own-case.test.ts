import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { moderationActions, reports } from '../../src/server/db/schema/community.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { paymentMismatches, paymentSteps } from '../../src/server/db/schema/payments.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// No one is judge in their own case: a moderator who is a party to a disputed claim (lender or
// borrower), a report (reporter, reported person, owner of the reported item) or a payment problem
// (lender or borrower of its reservation) does not see it in their queue and is refused (403 OWN_CASE)
// every decision on it, while another moderator sees and decides it. When no other moderator exists, the
// queue says so. On both databases.

const MODERATOR = 'judge.moderator@stanford.edu';
const OTHER = 'other.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR, OTHER] });
const db = () => t.database.db;

type SignedIn = Awaited<ReturnType<typeof createSignedInUser>>;
let judge: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  judge = await createSignedInUser(db(), { email: MODERATOR, fullName: 'Jamie Judge' });
  other = await createSignedInUser(db(), { email: OTHER, fullName: 'Olive Other' });
});

const OWN_CASE = {
  code: 'OWN_CASE',
  message: 'You are a party to this case, so you cannot decide it: another moderator must.',
};

function expectOwnCase(response: { statusCode: number; json: () => unknown; body: string }) {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toMatchObject(OWN_CASE);
}

/** A $20-deposit borrow from `lender` by `borrower`, returned, claimed $8 and disputed. */
async function disputedClaim(lender: SignedIn, borrower: SignedIn) {
  const item = await createItem(db(), {
    userId: lender.user.id,
    title: 'Camera lens',
    rentalPriceCents: 500,
    rentalPeriod: 'day',
    depositCents: 2000,
    cancellationPolicy: 'strict',
  });
  const r = await reserve(t, borrower.cookie, item.id, day(1), day(3));
  expect(r.create?.statusCode, r.create?.body).toBe(201);
  const id = r.reservation.id as string;
  expect((await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie)).statusCode).toBe(200);
  await settlePayments(t);
  const mine = (await t.get('/api/reservations', borrower.cookie)).json().reservations as {
    id: string;
    pickupCode: string;
  }[];
  const pickupCode = mine.find((m) => m.id === id)!.pickupCode;
  const start = await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode }, lender.cookie);
  expect(start.statusCode, start.body).toBe(200);
  expect((await t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie)).statusCode).toBe(
    200,
  );
  const claimed = await t.post(
    `/api/reservations/${id}/claim`,
    { description: 'The lens has a new scratch across the front element.', amount: '8.00' },
    lender.cookie,
  );
  expect(claimed.statusCode, claimed.body).toBe(200);
  const disputed = await t.post(
    `/api/reservations/${id}/claim/dispute`,
    { note: 'The scratch was there when I picked it up.' },
    borrower.cookie,
  );
  expect(disputed.statusCode, disputed.body).toBe(200);
  return { id, intent: r.paymentIntentId! };
}

const statusOf = async (id: string) =>
  (await db().select().from(reservations).where(eq(reservations.id, id)))[0]!.status;
const claimIds = async (cookie: string) =>
  ((await t.get('/api/admin/claims', cookie)).json().claims as { id: string }[]).map((c) => c.id);

describe('a disputed claim', () => {
  it('the moderator who lent the item neither sees nor decides it; another moderator does', async () => {
    const borrower = await createSignedInUser(db());
    const { id } = await disputedClaim(judge, borrower);

    const queue = (await t.get('/api/admin/claims', judge.cookie)).json();
    expect(queue.claims.map((c: { id: string }) => c.id)).not.toContain(id);
    expect(queue.ownCases).toEqual({ withheld: 1, otherModerator: true });
    expectOwnCase(await t.get(`/api/admin/claims/${id}/chat`, judge.cookie));
    // The whole deposit to themselves: refused, and nothing moved.
    expectOwnCase(await t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '8.00' }, judge.cookie));
    expect(await statusOf(id)).toBe('disputed');

    expect(await claimIds(other.cookie)).toContain(id);
    expect((await t.get(`/api/admin/claims/${id}/chat`, other.cookie)).statusCode).toBe(200);
    const decided = await t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '4.00' }, other.cookie);
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await statusOf(id)).toBe('completed');
    await settlePayments(t);
  });

  it('nor does the moderator who borrowed it, even with many requests at once', async () => {
    const lender = await createSignedInUser(db());
    const { id } = await disputedClaim(lender, judge);
    expect(await claimIds(judge.cookie)).not.toContain(id);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '0' }, judge.cookie),
      ),
    );
    for (const answer of answers) expectOwnCase(answer);
    expect(await statusOf(id)).toBe('disputed');
    expect(await claimIds(other.cookie)).toContain(id);
    expect(
      (await t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '0' }, other.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
  });

  it('when no other moderator can decide it, the queue says so', async () => {
    const borrower = await createSignedInUser(db());
    const { id } = await disputedClaim(judge, borrower);
    // A suspended moderator decides nothing: the judge is alone.
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, other.user.id));
    try {
      const queue = (await t.get('/api/admin/claims', judge.cookie)).json();
      expect(queue.ownCases).toEqual({ withheld: 1, otherModerator: false });
      expectOwnCase(await t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '0' }, judge.cookie));
    } finally {
      await db().update(users).set({ suspendedAt: null }).where(eq(users.id, other.user.id));
    }
    expect((await t.get('/api/admin/claims', judge.cookie)).json().ownCases.otherModerator).toBe(true);
    expect(
      (await t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '0' }, other.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
  });
});

const DESCRIPTION = 'This listing copies photos from a store website.';

async function report(reporter: SignedIn, about: { reportedItemId?: string; reportedUserId?: string }) {
  const response = await t.post(
    '/api/reports',
    { ...about, reason: 'fake_listing', description: DESCRIPTION },
    reporter.cookie,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().report.id as string;
}

const pendingIds = async (cookie: string) =>
  ((await t.get('/api/admin/reports?status=all&limit=50', cookie)).json().reports as { id: string }[]).map(
    (r) => r.id,
  );
const reportRow = async (id: string) => (await db().select().from(reports).where(eq(reports.id, id)))[0]!;
const actionsOn = async (id: string) =>
  db().select().from(moderationActions).where(eq(moderationActions.reportId, id));

describe('a report', () => {
  it('the moderator who made it decides nothing on it or its target; another moderator does', async () => {
    const owner = await createSignedInUser(db());
    const item = await createItem(db(), { userId: owner.user.id, title: 'Rival lamp' });
    const reportId = await report(judge, { reportedItemId: item.id });

    const queue = (await t.get('/api/admin/reports', judge.cookie)).json();
    expect(queue.reports.map((r: { id: string }) => r.id)).not.toContain(reportId);
    expect(queue.ownCases.withheld).toBeGreaterThanOrEqual(1);
    expect(queue.ownCases.otherModerator).toBe(true);
    expect(await pendingIds(judge.cookie)).not.toContain(reportId);
    expectOwnCase(await t.get(`/api/admin/reports/${reportId}`, judge.cookie));
    expectOwnCase(
      await t.post(`/api/admin/reports/${reportId}/notes`, { note: 'Clearly fake.' }, judge.cookie),
    );
    expectOwnCase(await t.post(`/api/admin/reports/${reportId}/resolve`, {}, judge.cookie));
    expectOwnCase(await t.post(`/api/admin/reports/${reportId}/dismiss`, {}, judge.cookie));
    expectOwnCase(await t.post(`/api/admin/items/${item.id}/hide`, { reportId }, judge.cookie));
    // Without naming the report, all the same: they reported this item.
    expectOwnCase(await t.post(`/api/admin/items/${item.id}/hide`, {}, judge.cookie));
    expectOwnCase(await t.post(`/api/admin/users/${owner.user.id}/suspend`, {}, judge.cookie));
    expect(await reportRow(reportId)).toMatchObject({ status: 'pending', adminNotes: null });
    expect(await actionsOn(reportId)).toEqual([]);
    const [row] = await db().select().from(items).where(eq(items.id, item.id));
    expect(row!.hiddenAt).toBeNull();

    expect(await pendingIds(other.cookie)).toContain(reportId);
    expect((await t.get(`/api/admin/reports/${reportId}`, other.cookie)).statusCode).toBe(200);
    expect((await t.post(`/api/admin/items/${item.id}/hide`, { reportId }, other.cookie)).statusCode).toBe(
      200,
    );
    expect((await t.post(`/api/admin/reports/${reportId}/resolve`, {}, other.cookie)).statusCode).toBe(200);
  });

  it('a report about the moderator, or about their item, is for the other moderators', async () => {
    const reporter = await createSignedInUser(db());
    const aboutJudge = await report(reporter, { reportedUserId: judge.user.id });
    const item = await createItem(db(), { userId: judge.user.id, title: 'My own drill' });
    const aboutItem = await report(reporter, { reportedItemId: item.id });

    const mine = await pendingIds(judge.cookie);
    expect(mine).not.toContain(aboutJudge);
    expect(mine).not.toContain(aboutItem);
    for (const id of [aboutJudge, aboutItem]) {
      expectOwnCase(await t.post(`/api/admin/reports/${id}/dismiss`, {}, judge.cookie));
      expectOwnCase(await t.post(`/api/admin/reports/${id}/notes`, { note: 'Nothing here.' }, judge.cookie));
      expect((await reportRow(id)).status).toBe('pending');
    }
    expectOwnCase(await t.post(`/api/admin/items/${item.id}/unhide`, {}, judge.cookie));
    expectOwnCase(await t.post(`/api/admin/items/${item.id}/hide`, { reportId: aboutItem }, judge.cookie));
    expectOwnCase(await t.post(`/api/admin/users/${judge.user.id}/unsuspend`, {}, judge.cookie));

    const theirs = await pendingIds(other.cookie);
    expect(theirs).toEqual(expect.arrayContaining([aboutJudge, aboutItem]));
    expect((await t.post(`/api/admin/reports/${aboutJudge}/dismiss`, {}, other.cookie)).statusCode).toBe(200);
    expect((await t.post(`/api/admin/reports/${aboutItem}/dismiss`, {}, other.cookie)).statusCode).toBe(200);
  });
});

describe('a payment problem', () => {
  it("of a reservation the moderator lent in is not theirs to retry or close; another moderator's", async () => {
    const borrower = await createSignedInUser(db());
    const item = await createItem(db(), {
      userId: judge.user.id,
      title: 'Tent',
      rentalPriceCents: 500,
      rentalPeriod: 'day',
      depositCents: 2000,
    });
    const r = await reserve(t, borrower.cookie, item.id, day(2), day(3));
    expect(r.create?.statusCode, r.create?.body).toBe(201);
    const reservationId = r.reservation.id as string;
    const intent = r.paymentIntentId!;
    // A step that failed for good and a finding, as the outbox and the reconciliation leave them.
    const [step] = await db()
      .insert(paymentSteps)
      .values({
        paymentIntentId: intent,
        reservationId,
        kind: 'capture',
        purpose: 'approval',
        amountCents: 1000,
        status: 'failed',
        attempts: 6,
        lastError: 'The provider is down.',
        idempotencyKey: randomUUID(),
      })
      .returning();
    const [finding] = await db()
      .insert(paymentMismatches)
      .values({ paymentIntentId: intent, reservationId, billingNetCents: 0, providerNetCents: 1000 })
      .returning();

    const seen = (await t.get('/api/admin/payments', judge.cookie)).json();
    expect(seen.steps.map((s: { id: string }) => s.id)).not.toContain(step!.id);
    expect(seen.mismatches.map((m: { id: string }) => m.id)).not.toContain(finding!.id);
    expect(seen.ownCases).toEqual({ withheld: 2, otherModerator: true });
    expectOwnCase(await t.post(`/api/admin/payment-steps/${step!.id}/retry`, {}, judge.cookie));
    expectOwnCase(
      await t.post(
        `/api/admin/payment-mismatches/${finding!.id}/resolve`,
        { note: 'Refunded by hand.' },
        judge.cookie,
      ),
    );
    const [stepRow] = await db().select().from(paymentSteps).where(eq(paymentSteps.id, step!.id));
    expect(stepRow!.status).toBe('failed');
    const [findingRow] = await db()
      .select()
      .from(paymentMismatches)
      .where(eq(paymentMismatches.id, finding!.id));
    expect(findingRow!.resolvedAt).toBeNull();

    const theirs = (await t.get('/api/admin/payments', other.cookie)).json();
    expect(theirs.steps.map((s: { id: string }) => s.id)).toContain(step!.id);
    expect(theirs.mismatches.map((m: { id: string }) => m.id)).toContain(finding!.id);
    const closed = await t.post(
      `/api/admin/payment-mismatches/${finding!.id}/resolve`,
      { note: 'Looked into it: nothing to do.' },
      other.cookie,
    );
    expect(closed.statusCode, closed.body).toBe(200);
    // The test step never reached the provider: leave the books as they were.
    await db().delete(paymentSteps).where(eq(paymentSteps.id, step!.id));
  });
});
