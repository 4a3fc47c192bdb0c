import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { fixedClock } from '../../src/server/clock.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { reminderService } from '../../src/server/features/reminders/service.ts';
import { reservationService } from '../../src/server/features/reservations/service.ts';
import { createSignedInUser } from '../factories.ts';
import { billingOf, bookingAt, notices, providerIntent, rowsOf } from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { reservationDeps, settlePayments, stepStatuses } from '../helpers/money.ts';
import { day, quoteFor, scenario, TZ, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decisions 024 and 029: the borrower's "Item Returned" opens the lender's
// 48-hour window; the lender confirms (deposit back) or reports a problem (a claim up to the deposit);
// the borrower accepts or disputes; a moderator decides a dispute; silence releases the deposit (the
// job, by a clock the test moves); an overdue borrow is told, claimable after 24 h and blocks new
// requests. Many requests at once move money once. On both databases; after every test our billing rows
// equal the provider's money (test-app's afterEach).

let flaky!: ReturnType<typeof flakyProvider>;
const MODERATOR = 'claims.moderator@stanford.edu';
const SECOND_MODERATOR = 'claims.second@stanford.edu';
const t = setupTestApp(
  // The deposit's own arithmetic (a deposit refund never touches the fee: service-fee.test.ts).
  { adminEmails: [MODERATOR, SECOND_MODERATOR], ...WITHOUT_SERVICE_FEE },
  {
    payments: (db) => {
      flaky = flakyProvider(new TestPaymentProvider(db));
      return flaky.provider;
    },
  },
);
const db = () => t.database.db;
const HOUR = 3600_000;

async function statusOf(id: string) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row!;
}
const titles = (cookie: string, id: string) => notices(t, cookie, { id });
const put = (id: string, status: string, cookie?: string) =>
  t.put(`/api/reservations/${id}`, { status }, cookie);
const refunds = async (intent: string) =>
  (await stepStatuses(t, intent)).filter((s) => s.startsWith('refund'));

/**
 * A $10 rental with a $20 deposit: requested, approved, charged and handed over. Strict, so the return
 * before its last day (an early return, decision 034) keeps the rental and only the deposit moves here.
 */
const activeBorrow = () => bookingAt(t, 'active', { policy: 'strict' });

/** The same, and the borrower has pressed "Item Returned". */
async function returnedBorrow() {
  const b = await activeBorrow();
  const response = await put(b.id, 'returned', b.borrower.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return { ...b, returned: response.json().reservation };
}

/** Moves the return `hours` into the past (the window is counted from it). */
async function returnedHoursAgo(id: string, hours: number) {
  await db()
    .update(reservations)
    .set({ returnedAt: new Date(Date.now() - hours * HOUR) })
    .where(eq(reservations.id, id));
}

const claim = (id: string, body: object, cookie?: string) =>
  t.post(`/api/reservations/${id}/claim`, body, cookie);
const PHOTO = '/uploads/items/2026/11/scratch.jpg';
const PROBLEM = { description: 'The lens has a new scratch across the front element.', amount: '8.00' };

describe('the return and its window', () => {
  it('"Item Returned" asks the lender to confirm; its day stays booked; no money moves yet', async () => {
    const { lender, borrower, id, intent, item, returned } = await returnedBorrow();
    expect(returned.status).toBe('returned');
    expect(returned.claim.returnedAt).toBeTruthy();
    const by = Date.parse(returned.claim.confirmBy) - Date.parse(returned.claim.returnedAt);
    expect(by).toBe(48 * HOUR);
    await settlePayments(t);
    expect(await refunds(intent)).toEqual([]);
    // Booked still (the days after it are freed by the early return, decision 034): another request
    // for its day is refused.
    const booked = (await t.get(`/api/items/${item.id}/availability`)).json().booked;
    expect(booked).toContainEqual({ startDate: day(1), endDate: day(1) });
    expect((await titles(lender.cookie, id)).map((n) => n.title)).toContain('Confirm the return');
    expect((await titles(borrower.cookie, id)).map((n) => n.title)).toContain('Return noted');
    // The borrower cannot give their own deposit back, nor the lender say it was returned for them.
    expect((await put(id, 'completed', borrower.cookie)).statusCode).toBe(403);
    expect((await statusOf(id)).status).toBe('returned');
  });

  it('"Returned in good condition" completes it and refunds the whole deposit, with rows for both', async () => {
    const { lender, borrower, id, intent } = await returnedBorrow();
    const done = await put(id, 'completed', lender.cookie);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().reservation.status).toBe('completed');
    await settlePayments(t);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    expect(await rowsOf(t, id)).toEqual([
      'earning:1000:completed',
      'payment:3000:completed',
      'refund:2000:refunded',
    ]);
    expect((await titles(borrower.cookie, id)).map((n) => n.title)).toEqual(
      expect.arrayContaining(['Item returned', 'Deposit refunded']),
    );
    expect((await titles(lender.cookie, id)).map((n) => n.title)).toContain('Item returned');
  });

  it('ten confirms at once: one wins, one refund', async () => {
    const { lender, id, intent } = await returnedBorrow();
    const answers = await Promise.all(Array.from({ length: 10 }, () => put(id, 'completed', lender.cookie)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    await settlePayments(t);
    expect(await refunds(intent)).toEqual(['refund:succeeded']);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
  });

  it('silence for 48 hours releases the deposit by the job, once; not a minute before', async () => {
    const { lender, borrower, id, intent } = await returnedBorrow();
    const returnedAt = (await statusOf(id)).returnedAt!;
    const clock = fixedClock(new Date(returnedAt.getTime() + 48 * HOUR - 60_000));
    const round = () => reservationService.releaseUnansweredReturns({ ...reservationDeps(t), clock });
    // (Returns of earlier tests in this file may fall due too: only this one's status is asserted.)
    await round();
    expect((await statusOf(id)).status).toBe('returned');
    clock.advance(60_000);
    expect(await round()).toBeGreaterThanOrEqual(1);
    expect((await statusOf(id)).status).toBe('completed');
    expect(await round()).toBe(0);
    await settlePayments(t);
    expect((await statusOf(id)).status).toBe('completed');
    expect(await refunds(intent)).toEqual(['refund:succeeded']);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    const words = (await titles(lender.cookie, id)).find((n) => n.title === 'Item returned')!.message;
    expect(words).toContain('No problem was reported within 48 hours');
    expect((await titles(borrower.cookie, id)).map((n) => n.title)).toContain('Deposit refunded');
    // The window has closed: a late report is refused.
    expect((await claim(id, PROBLEM, lender.cookie)).statusCode).toBe(409);
  });

  it('a confirm racing the job: one refund', async () => {
    const { lender, id, intent } = await returnedBorrow();
    await returnedHoursAgo(id, 49);
    const job = () =>
      reservationService.releaseUnansweredReturns({ ...reservationDeps(t), clock: fixedClock(new Date()) });
    const confirm = async () => ((await put(id, 'completed', lender.cookie)).statusCode === 200 ? 1 : 0);
    const wins = await Promise.all([job(), confirm(), job(), confirm(), job(), confirm()]);
    expect(wins.reduce((a, b) => a + b, 0)).toBe(1);
    await settlePayments(t);
    expect((await statusOf(id)).status).toBe('completed');
    expect(await refunds(intent)).toEqual(['refund:succeeded']);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
  });

  it('a refund the provider fails is retried; counted once', async () => {
    const { lender, id, intent } = await returnedBorrow();
    expect((await put(id, 'completed', lender.cookie)).statusCode).toBe(200);
    flaky.failNext('refund', 2);
    await settlePayments(t);
    expect(await refunds(intent)).toEqual(['refund:pending']);
    expect(await rowsOf(t, id)).toContain('refund:2000:pending');
    await settlePayments(t);
    await settlePayments(t);
    expect(await refunds(intent)).toEqual(['refund:succeeded']);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    expect(await rowsOf(t, id)).toEqual([
      'earning:1000:completed',
      'payment:3000:completed',
      'refund:2000:refunded',
    ]);
  });
});

describe('a deposit claim', () => {
  it('refuses bad claims with a clear 4xx and changes nothing', async () => {
    const { lender, borrower, stranger, id } = await returnedBorrow();
    const cases: [object, string | undefined, number][] = [
      [{ ...PROBLEM, amount: '20.01' }, lender.cookie, 400],
      [{ ...PROBLEM, amount: '0' }, lender.cookie, 400],
      [{ ...PROBLEM, amount: 'lots' }, lender.cookie, 400],
      [{ ...PROBLEM, description: 'bad' }, lender.cookie, 400],
      [{ amount: '5.00' }, lender.cookie, 400],
      // Photos only from our own upload pipeline, at most five.
      [{ ...PROBLEM, photos: ['https://tracker.example/a.jpg'] }, lender.cookie, 400],
      [{ ...PROBLEM, photos: ['data:image/jpeg;base64,AAAA'] }, lender.cookie, 400],
      [{ ...PROBLEM, photos: Array(6).fill(PHOTO) }, lender.cookie, 400],
      [PROBLEM, borrower.cookie, 403],
      [PROBLEM, stranger.cookie, 403],
      [PROBLEM, undefined, 401],
    ];
    for (const [body, cookie, code] of cases) {
      const response = await claim(id, body, cookie);
      expect(response.statusCode, `${JSON.stringify(body)} → ${response.body}`).toBe(code);
      expect(response.json().message).toBeTruthy();
    }
    const over = await claim(id, { ...PROBLEM, amount: '25.00' }, lender.cookie);
    expect(over.json().message).toBe('The amount claimed must be between $0.01 and the $20.00 deposit.');
    expect(await statusOf(id)).toMatchObject({ status: 'returned', claimCents: null });
    // Not before the return (nor 24 h overdue): refused; nor on another's reservation.
    const early = await activeBorrow();
    expect((await claim(early.id, PROBLEM, early.lender.cookie)).statusCode).toBe(409);
    expect((await statusOf(early.id)).status).toBe('active');
    // Wrong stage for the borrower's answer.
    expect((await t.post(`/api/reservations/${id}/claim/accept`, {}, borrower.cookie)).statusCode).toBe(409);
  });

  it('the borrower accepts: the rest of the deposit back, the lender earns the claim; ten accepts, once', async () => {
    const { lender, borrower, id, intent } = await returnedBorrow();
    const claimed = await claim(id, { ...PROBLEM, photos: [PHOTO] }, lender.cookie);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().reservation).toMatchObject({
      status: 'claimed',
      claim: {
        amountClaimed: '8.00',
        description: PROBLEM.description,
        photos: [PHOTO],
        amountAwarded: null,
      },
    });
    expect((await titles(borrower.cookie, id)).map((n) => n.title)).toContain('Deposit claim');
    // Only the borrower answers.
    expect((await t.post(`/api/reservations/${id}/claim/accept`, {}, lender.cookie)).statusCode).toBe(403);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.post(`/api/reservations/${id}/claim/accept`, {}, borrower.cookie)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    const settled = answers.find((a) => a.statusCode === 200)!.json().reservation;
    expect(settled).toMatchObject({
      status: 'completed',
      claim: { amountClaimed: '8.00', amountAwarded: '8.00', depositRefund: '12.00' },
    });
    await settlePayments(t);
    expect(await refunds(intent)).toEqual(['refund:succeeded']);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(1200);
    expect(await rowsOf(t, id)).toEqual([
      'earning:1800:completed',
      'payment:3000:completed',
      'refund:1200:refunded',
    ]);
    expect((await titles(lender.cookie, id)).map((n) => n.title)).toContain('Claim settled');
    expect((await titles(borrower.cookie, id)).map((n) => n.title)).toEqual(
      expect.arrayContaining(['Claim settled', 'Deposit refunded']),
    );
  });

  it("with an approved extension, the claim adds to the booking's own earning, not to the extension's", async () => {
    const { lender, borrower, id, intent } = await activeBorrow();
    // Two more days ($10) on their own payment, approved and charged.
    const quote = await t.post(
      `/api/reservations/${id}/extension-payment-intent`,
      { endDate: day(5), rentalAmount: '10.00' },
      borrower.cookie,
    );
    expect(quote.statusCode, quote.body).toBe(200);
    const { paymentIntentId: extra } = quote.json() as { paymentIntentId: string };
    expect(
      (await t.post('/api/payments/test/confirm', { paymentIntentId: extra, card: VISA }, borrower.cookie))
        .statusCode,
    ).toBe(200);
    const asked = await t.post(
      `/api/reservations/${id}/extensions`,
      { endDate: day(5), paymentIntentId: extra },
      borrower.cookie,
    );
    expect(asked.statusCode, asked.body).toBe(201);
    const approved = await t.post(`/api/extensions/${asked.json().extension.id}/approve`, {}, lender.cookie);
    expect(approved.statusCode, approved.body).toBe(200);
    await settlePayments(t);
    expect((await put(id, 'returned', borrower.cookie)).statusCode).toBe(200);
    expect((await claim(id, PROBLEM, lender.cookie)).statusCode).toBe(200);
    expect((await t.post(`/api/reservations/${id}/claim/accept`, {}, borrower.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    // The booking's payment: its $10 rental and the $8 claimed; the rest of the deposit back.
    expect(await billingOf(t, { intentId: intent })).toEqual([
      'earning:1800:completed',
      'payment:3000:completed',
      'refund:1200:refunded',
    ]);
    // The extension's payment: its $10 rental only (the claim counted once).
    expect(await billingOf(t, { intentId: extra })).toEqual([
      'earning:1000:completed',
      'payment:1000:completed',
    ]);
  });

  it('the rest of the deposit, when the provider acts but its answer is lost: refunded once', async () => {
    const { lender, borrower, id, intent } = await returnedBorrow();
    expect((await claim(id, PROBLEM, lender.cookie)).statusCode).toBe(200);
    expect((await t.post(`/api/reservations/${id}/claim/accept`, {}, borrower.cookie)).statusCode).toBe(200);
    flaky.loseAnswers('refund', 1);
    await settlePayments(t);
    // The provider refunded; we do not know it yet, so nothing says so.
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(1200);
    expect(await rowsOf(t, id)).toContain('refund:1200:pending');
    await settlePayments(t);
    await settlePayments(t);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(1200);
    expect(await refunds(intent)).toEqual(['refund:succeeded']);
    expect(await rowsOf(t, id)).toEqual([
      'earning:1800:completed',
      'payment:3000:completed',
      'refund:1200:refunded',
    ]);
  });

  it('a claim of the whole deposit: nothing refunded, the lender earns it all', async () => {
    const { lender, borrower, id, intent } = await returnedBorrow();
    expect((await claim(id, { ...PROBLEM, amount: '20' }, lender.cookie)).statusCode).toBe(200);
    expect((await t.post(`/api/reservations/${id}/claim/accept`, {}, borrower.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    expect(await refunds(intent)).toEqual([]);
    expect(await rowsOf(t, id)).toEqual(['earning:3000:completed', 'payment:3000:completed']);
  });

  it("disputed: in the moderators' queue with both sides; the moderator decides the amount", async () => {
    const { lender, borrower, stranger, id, intent } = await returnedBorrow();
    const moderator = await createSignedInUser(db(), { email: MODERATOR });
    expect((await claim(id, PROBLEM, lender.cookie)).statusCode).toBe(200);
    const note = 'The scratch was there when I picked it up; see the listing photo.';
    expect(
      (await t.post(`/api/reservations/${id}/claim/dispute`, { note: 'no' }, borrower.cookie)).statusCode,
    ).toBe(400);
    expect((await t.post(`/api/reservations/${id}/claim/dispute`, { note }, lender.cookie)).statusCode).toBe(
      403,
    );
    expect(
      (
        await t.post(
          `/api/reservations/${id}/claim/dispute`,
          { note, photos: ['https://tracker.example/b.jpg'] },
          borrower.cookie,
        )
      ).statusCode,
    ).toBe(400);
    const mine = '/uploads/items/2026/11/pickup.jpg';
    const disputed = await t.post(
      `/api/reservations/${id}/claim/dispute`,
      { note, photos: [mine] },
      borrower.cookie,
    );
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect(disputed.json().reservation).toMatchObject({
      status: 'disputed',
      claim: { disputeNote: note, disputePhotos: [mine] },
    });
    expect((await titles(lender.cookie, id)).map((n) => n.title)).toContain('Claim disputed');

    expect((await t.get('/api/admin/claims', borrower.cookie)).statusCode).toBe(403);
    expect((await t.get('/api/admin/claims')).statusCode).toBe(401);
    const queue = (await t.get('/api/admin/claims', moderator.cookie)).json().claims;
    expect(queue.find((c: { id: string }) => c.id === id)).toMatchObject({
      claim: {
        description: PROBLEM.description,
        disputeNote: note,
        disputePhotos: [mine],
        amountClaimed: '8.00',
      },
      provider: { id: lender.user.id },
      borrower: { id: borrower.user.id },
    });

    const decide = (amountAwarded: string, cookie?: string) =>
      t.post(
        `/api/admin/claims/${id}/decide`,
        { amountAwarded, note: 'Half: the photos are unclear.' },
        cookie,
      );
    expect((await decide('8.01', moderator.cookie)).statusCode).toBe(400);
    expect((await decide('5.00', lender.cookie)).statusCode).toBe(403);
    expect((await decide('5.00', stranger.cookie)).statusCode).toBe(403);
    expect((await statusOf(id)).status).toBe('disputed');
    const answers = await Promise.all(Array.from({ length: 5 }, () => decide('5.00', moderator.cookie)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    await settlePayments(t);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(1500);
    expect(await rowsOf(t, id)).toEqual([
      'earning:1500:completed',
      'payment:3000:completed',
      'refund:1500:refunded',
    ]);
    expect(await statusOf(id)).toMatchObject({
      status: 'completed',
      awardedCents: 500,
      resolvedBy: moderator.user.id,
    });
    const words = (await titles(borrower.cookie, id)).find((n) => n.title === 'Claim settled')!.message;
    expect(words).toContain('the lender keeps $5.00 of the $8.00 claimed');
    expect((await t.get('/api/admin/claims', moderator.cookie)).json().claims).toEqual([]);
  });

  it('a moderator may award nothing: the whole deposit comes back', async () => {
    const { lender, borrower, id, intent } = await returnedBorrow();
    const moderator = await createSignedInUser(db(), { email: SECOND_MODERATOR });
    expect((await claim(id, PROBLEM, lender.cookie)).statusCode).toBe(200);
    const note = 'It was like that when I got it, honestly.';
    expect(
      (await t.post(`/api/reservations/${id}/claim/dispute`, { note }, borrower.cookie)).statusCode,
    ).toBe(200);
    const decided = await t.post(`/api/admin/claims/${id}/decide`, { amountAwarded: '0' }, moderator.cookie);
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json().reservation.claim).toMatchObject({ amountAwarded: '0.00', depositRefund: '20.00' });
    await settlePayments(t);
    expect((await providerIntent(t, intent)).amountRefundedCents).toBe(2000);
    expect(await rowsOf(t, id)).toEqual([
      'earning:1000:completed',
      'payment:3000:completed',
      'refund:2000:refunded',
    ]);
  });
});

describe('late returns', () => {
  /** An active borrow whose end day was `daysAgo` days ago. */
  async function overdueBorrow(daysAgo: number) {
    const b = await activeBorrow();
    await db()
      .update(reservations)
      .set({ startDate: day(-daysAgo - 2), endDate: day(-daysAgo) })
      .where(eq(reservations.id, b.id));
    return b;
  }

  it('is shown overdue, both are told once, and the borrower cannot request anything new', async () => {
    const { lender, borrower, id } = await overdueBorrow(1);
    const mine = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0];
    expect(mine).toMatchObject({ id, status: 'active', overdue: true });
    expect(mine.claim.claimableFrom).toBeTruthy();

    const round = () =>
      reminderService.sendDue({ db: db(), clock: fixedClock(new Date()), timeZone: TZ, expiryHours: 48 });
    await round();
    await round();
    expect((await titles(borrower.cookie, id)).filter((n) => n.title === 'Item overdue')).toHaveLength(1);
    expect((await titles(lender.cookie, id)).filter((n) => n.title === 'Item overdue')).toHaveLength(1);

    const other = await scenario(t);
    const refused = await quoteFor(t, borrower.cookie, other.item.id, day(5), day(6));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'OVERDUE_RETURN' });
    expect(refused.json().message).toContain('Please return Cordless drill first');
    const direct = await t.post(
      '/api/reservations',
      { itemId: other.item.id, startDate: day(5), endDate: day(6) },
      borrower.cookie,
    );
    expect(direct.statusCode).toBe(403);

    // Returned: the block lifts.
    expect((await put(id, 'returned', borrower.cookie)).statusCode).toBe(200);
    expect((await quoteFor(t, borrower.cookie, other.item.id, day(5), day(6))).statusCode).toBe(200);
  });

  it('the lender may claim only after 24 hours overdue', async () => {
    const fresh = await overdueBorrow(1);
    // Overdue since last midnight: not yet 24 hours.
    const early = await claim(fresh.id, PROBLEM, fresh.lender.cookie);
    expect(early.statusCode).toBe(409);
    expect((await statusOf(fresh.id)).status).toBe('active');

    const late = await overdueBorrow(2);
    const claimed = await claim(
      late.id,
      { description: 'Not returned at all, no answer to messages.', amount: '20.00' },
      late.lender.cookie,
    );
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(
      (await t.post(`/api/reservations/${late.id}/claim/accept`, {}, late.borrower.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect((await providerIntent(t, late.intent)).amountRefundedCents).toBe(0);
    expect(await rowsOf(t, late.id)).toEqual(['earning:3000:completed', 'payment:3000:completed']);
  });
});
