import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { bankPayouts, connectedAccounts } from '../../src/server/db/schema/payouts.ts';
import { paymentEvents } from '../../src/server/db/schema/test-payments.ts';
import { createSignedInUser } from '../factories.ts';
import { connectEvent, deliverWebhook, stripeEvent } from '../helpers/fake-stripe.ts';
import { setupStripeApp } from '../helpers/stripe-app.ts';

// Decision 061: Stripe's Connect webhook (a local fake Stripe through the real SDK) at its own address
// with its own signing secret. Each event only names an object, read again from Stripe: account.updated
// refreshes the lender's account, a deauthorisation restricts it for good and tells the lender once,
// payout events record the bank payout as Stripe holds it. A bad signature is refused with nothing done;
// each event is applied once however many deliveries race. The platform's endpoint takes transfer
// events and reports a transfer it has no row for. On both databases.

const SECRET = 'whsec_platform_secret';
const CONNECT_SECRET = 'whsec_connect_secret';
const stripeApp = await setupStripeApp({ webhookSecret: SECRET, connectWebhookSecret: CONNECT_SECRET });
const { fake, t } = stripeApp;
const db = () => t.database.db;
const CONNECT_URL = '/api/webhooks/connect';

let counter = 0;
const nextId = () => `evt_connect_${++counter}_${Math.random().toString(36).slice(2, 8)}`;

const deliver = (event: object, secret = CONNECT_SECRET, url = CONNECT_URL) =>
  stripeApp.deliver(event, secret, url);

/** A lender who started onboarding: their account exists at (fake) Stripe, not yet complete. */
async function lenderWithAccount() {
  const lender = await createSignedInUser(db());
  const started = await t.post('/api/payouts/onboarding', {}, lender.cookie);
  expect(started.statusCode, started.body).toBe(200);
  const [row] = await db()
    .select()
    .from(connectedAccounts)
    .where(eq(connectedAccounts.userId, lender.user.id));
  return { lender, accountId: row!.accountId };
}

const accountRow = async (accountId: string) =>
  (await db().select().from(connectedAccounts).where(eq(connectedAccounts.accountId, accountId)))[0]!;
const eventsNamed = async (id: string) => db().select().from(paymentEvents).where(eq(paymentEvents.id, id));

describe('POST /api/webhooks/connect', () => {
  it('refuses a bad or missing signature, and changes nothing', async () => {
    const { accountId } = await lenderWithAccount();
    fake.onboard(accountId, 'complete');
    const id = nextId();
    const event = connectEvent(id, 'account.updated', accountId, fake.account(accountId));
    // Signed with the platform endpoint's secret, not the Connect one's.
    const wrong = await deliver(event, SECRET);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('BAD_SIGNATURE');
    const unsigned = await deliverWebhook(t.app, JSON.stringify(event), {}, CONNECT_URL);
    expect(unsigned.statusCode).toBe(400);
    expect(await accountRow(accountId)).toMatchObject({ status: 'action_needed' });
    expect(await eventsNamed(id)).toEqual([]);
  });

  it('reads the account again on account.updated: applied once however many deliveries race', async () => {
    const { lender, accountId } = await lenderWithAccount();
    fake.onboard(accountId, 'complete');
    const id = nextId();
    // The event's body says nothing useful: the account is read from Stripe.
    const event = connectEvent(id, 'account.updated', accountId, { id: accountId, object: 'account' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(event)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(await accountRow(accountId)).toMatchObject({ status: 'active', requirementsDue: [] });
    expect(await eventsNamed(id)).toHaveLength(1);
    const view = (await t.get('/api/payouts', lender.cookie)).json();
    expect(view.account).toMatchObject({ status: 'active' });
    // A different event of the same change later (capability.updated): the same state.
    const again = await deliver(
      connectEvent(nextId(), 'capability.updated', accountId, { id: 'transfers', object: 'capability' }),
    );
    expect(again.statusCode).toBe(200);
    expect(await accountRow(accountId)).toMatchObject({ status: 'active' });
  });

  it('restricts a deauthorised account for good and tells the lender once', async () => {
    const { lender, accountId } = await lenderWithAccount();
    fake.onboard(accountId, 'complete');
    await deliver(connectEvent(nextId(), 'account.updated', accountId, { id: accountId }));
    const events = Array.from({ length: 5 }, () =>
      connectEvent(nextId(), 'account.application.deauthorized', accountId, { id: 'ca_fake' }),
    );
    const answers = await Promise.all(events.map((e) => deliver(e)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    const row = await accountRow(accountId);
    expect(row.status).toBe('restricted');
    expect(row.deauthorisedAt).not.toBeNull();
    // Whatever Stripe says of the account later, it stays restricted.
    await deliver(connectEvent(nextId(), 'account.updated', accountId, { id: accountId }));
    expect(await accountRow(accountId)).toMatchObject({ status: 'restricted' });
    const told = await db().select().from(notifications).where(eq(notifications.userId, lender.user.id));
    expect(told.filter((n) => n.title === 'Stripe account disconnected')).toHaveLength(1);
  });

  it('records the bank payout as Stripe holds it, whatever order its events come in', async () => {
    const { accountId, lender } = await lenderWithAccount();
    const paid = fake.payout(accountId, { amount: 1234, status: 'paid' });
    const id = paid.id as string;
    // payout.created arrives after payout.paid: both read the payout, which is paid.
    await deliver(connectEvent(nextId(), 'payout.paid', accountId, { id, object: 'payout' }));
    await deliver(
      connectEvent(nextId(), 'payout.created', accountId, { id, object: 'payout', status: 'pending' }),
    );
    const [row] = await db().select().from(bankPayouts).where(eq(bankPayouts.id, id));
    expect(row).toMatchObject({ accountId, lenderId: lender.user.id, amountCents: 1234, status: 'paid' });
    // It fails later (the bank refused it): read again, recorded as failed.
    fake.payout(accountId, { id, amount: 1234, status: 'failed', failureMessage: 'account_closed' });
    await deliver(connectEvent(nextId(), 'payout.failed', accountId, { id, object: 'payout' }));
    expect((await db().select().from(bankPayouts).where(eq(bankPayouts.id, id)))[0]).toMatchObject({
      status: 'failed',
      failureMessage: 'account_closed',
    });
  });

  it('acknowledges events of accounts and payouts that are not ours, recording nothing else', async () => {
    const before = (await db().execute<{ n: number }>(sql`select count(*)::int as n from bank_payouts`))
      .rows[0]!.n;
    const stranger = await deliver(connectEvent(nextId(), 'payout.paid', 'acct_not_ours', { id: 'po_x' }));
    expect(stranger.statusCode).toBe(200);
    const { accountId } = await lenderWithAccount();
    const missing = await deliver(connectEvent(nextId(), 'payout.paid', accountId, { id: 'po_missing' }));
    expect(missing.statusCode).toBe(200);
    const after = (await db().execute<{ n: number }>(sql`select count(*)::int as n from bank_payouts`))
      .rows[0]!.n;
    expect(after).toBe(before);
  });
});

describe('transfer events on the platform endpoint', () => {
  it('acknowledges a transfer it has no row for, as a finding, changing nothing', async () => {
    const { accountId } = await lenderWithAccount();
    fake.onboard(accountId, 'complete');
    const transfer = fake.transfers.size;
    const made = await t.app.payments.createTransfer({
      amountCents: 500,
      currency: 'usd',
      destination: accountId,
      sourceTransaction: null,
      transferGroup: 'booking-not-ours',
      metadata: {},
      idempotencyKey: `stray-${Math.random()}`,
    });
    expect(fake.transfers.size).toBe(transfer + 1);
    const answer = await deliver(
      stripeEvent(nextId(), 'transfer.created', { id: made.id, object: 'transfer' }),
      SECRET,
      '/api/payments/webhook',
    );
    expect(answer.statusCode, answer.body).toBe(200);
  });
});
