import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { connectedAccounts } from '../../src/server/db/schema/payouts.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { testConnectedAccounts } from '../../src/server/db/schema/test-payments.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { day } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 056: a lender sets up payouts from Settings ("Get paid"): one Express account however many
// calls race, a fresh onboarding link each time, the account read from the provider on the way back, and
// a paid request approved only by a lender whose account can receive the money.

const t = setupTestApp();

const accountIdOf = async (userId: string) =>
  (await t.database.db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId)))[0]
    ?.accountId;

async function onboardedTo(cookie: string, outcome: 'complete' | 'needs_information' | 'rejected') {
  const start = await t.post('/api/payouts/onboarding', {}, cookie);
  expect(start.statusCode, start.body).toBe(200);
  const account = new URL(start.json().url, 'http://x').searchParams.get('account')!;
  const answer = await t.post('/api/payouts/test/onboarding', { accountId: account, outcome }, cookie);
  expect(answer.statusCode, answer.body).toBe(200);
  return { account, view: answer.json().account };
}

describe('getting paid: the account', () => {
  it('is only for someone signed in, and starts as not set up', async () => {
    expect((await t.get('/api/payouts')).statusCode).toBe(401);
    expect((await t.post('/api/payouts/onboarding', {})).statusCode).toBe(401);
    expect((await t.post('/api/payouts/dashboard', {})).statusCode).toBe(401);
    const { cookie } = await createSignedInUser(t.database.db);
    const res = await t.get('/api/payouts', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      account: { status: 'not_set_up', requirementsDue: [] },
      totals: { earned: '0.00', sent: '0.00', upcoming: '0.00' },
      transfers: [],
    });
  });

  it('makes one account however many onboarding calls race, each with its own link', async () => {
    const { user, cookie } = await createSignedInUser(t.database.db);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.post('/api/payouts/onboarding', {}, cookie)),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const rows = await t.database.db
      .select()
      .from(connectedAccounts)
      .where(eq(connectedAccounts.userId, user.id));
    expect(rows).toHaveLength(1);
    const atProvider = await t.database.db
      .select()
      .from(testConnectedAccounts)
      .where(eq(testConnectedAccounts.userId, user.id));
    expect(atProvider.map((a) => a.id)).toEqual([rows[0]!.accountId]);
    for (const a of answers) {
      const url = new URL(a.json().url, 'http://x');
      expect(url.pathname).toBe('/payouts/test/onboarding');
      expect(url.searchParams.get('account')).toBe(rows[0]!.accountId);
      expect(url.searchParams.get('return_url')).toMatch(/\/settings\?payouts=return/);
      expect(url.searchParams.get('refresh_url')).toMatch(/\/api\/payouts\/onboarding\/refresh$/);
    }
    const view = (await t.get('/api/payouts', cookie)).json();
    expect(view.account.status).toBe('action_needed');
    expect(view.account.requirementsDue).toContain('external_account');
  });

  it('mints a new link at the refresh address', async () => {
    const { cookie } = await createSignedInUser(t.database.db);
    expect((await t.get('/api/payouts/onboarding/refresh')).statusCode).toBe(401);
    const res = await t.get('/api/payouts/onboarding/refresh', cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/payouts\/test\/onboarding\?account=acct_test_/);
  });

  it('follows the onboarding page: complete, more information needed, rejected', async () => {
    const { cookie } = await createSignedInUser(t.database.db);
    const needs = await onboardedTo(cookie, 'needs_information');
    expect(needs.view).toEqual({
      status: 'action_needed',
      requirementsDue: ['individual.verification.document'],
    });
    const done = await onboardedTo(cookie, 'complete');
    expect(done.account).toBe(needs.account);
    expect(done.view).toEqual({ status: 'active', requirementsDue: [] });
    expect((await onboardedTo(cookie, 'rejected')).view.status).toBe('restricted');
  });

  it('reads the account from the provider on the return, never from the browser', async () => {
    const { user, cookie } = await createSignedInUser(t.database.db);
    expect((await t.post('/api/payouts/account/refresh', {}, cookie)).json()).toEqual({
      status: 'not_set_up',
      requirementsDue: [],
    });
    await t.post('/api/payouts/onboarding', {}, cookie);
    const account = (await accountIdOf(user.id))!;
    // Onboarding finished at the provider; our row does not know yet.
    await new TestPaymentProvider(t.database.db).setConnectedAccountState(account, 'complete');
    expect((await t.get('/api/payouts', cookie)).json().account.status).toBe('action_needed');
    const back = await t.post('/api/payouts/account/refresh', {}, cookie);
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({ status: 'active', requirementsDue: [] });
  });

  it("refuses to answer the onboarding page for someone else's account, and bad input", async () => {
    const owner = await createSignedInUser(t.database.db);
    const other = await createSignedInUser(t.database.db);
    await t.post('/api/payouts/onboarding', {}, owner.cookie);
    const account = (await accountIdOf(owner.user.id))!;
    const theirs = await t.post(
      '/api/payouts/test/onboarding',
      { accountId: account, outcome: 'complete' },
      other.cookie,
    );
    expect(theirs.statusCode).toBe(404);
    for (const body of [
      {},
      { accountId: account },
      { accountId: account, outcome: 'approved' },
      { accountId: '', outcome: 'complete' },
    ]) {
      expect((await t.post('/api/payouts/test/onboarding', body, owner.cookie)).statusCode).toBe(400);
    }
    expect((await t.get('/api/payouts', owner.cookie)).json().account.status).toBe('action_needed');
  });

  it('opens the Express dashboard only for a lender who has an account', async () => {
    const { cookie } = await createSignedInUser(t.database.db);
    const none = await t.post('/api/payouts/dashboard', {}, cookie);
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('PAYOUTS_NOT_SET_UP');
    await onboardedTo(cookie, 'complete');
    const link = await t.post('/api/payouts/dashboard', {}, cookie);
    expect(link.statusCode).toBe(200);
    expect(link.json().url).toMatch(/^\/payouts\/test\/onboarding\?account=acct_test_.*dashboard=1/);
  });
});

describe('approving a paid request needs payouts', () => {
  it('refuses a lender without active payouts with a 409 that names payouts, and changes nothing', async () => {
    const b = await bookingAt(t, 'requested', { lenderPayouts: false });
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('PAYOUTS_NOT_ACTIVE');
      expect(res.json().message).toMatch(/payouts/i);
    }
    const [row] = await t.database.db.select().from(reservations).where(eq(reservations.id, b.id));
    expect(row!.status).toBe('pending');

    // Onboarding that still needs information is not enough either.
    await onboardedTo(b.lender.cookie, 'needs_information');
    expect((await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)).statusCode).toBe(409);

    await onboardedTo(b.lender.cookie, 'complete');
    const ok = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('asks nothing of the lender of a free item', async () => {
    const lender = await createSignedInUser(t.database.db);
    const borrower = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, {
      userId: lender.user.id,
      rentalPriceCents: null,
      depositCents: null,
    });
    const create = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(3) },
      borrower.cookie,
    );
    expect(create.statusCode, create.body).toBe(201);
    const ok = await t.post(`/api/reservations/${create.json().reservation.id}/approve`, {}, lender.cookie);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.get('/api/payouts', lender.cookie)).json().account.status).toBe('not_set_up');
  });
});
