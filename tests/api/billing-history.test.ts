import { describe, expect, it } from 'vitest';
import { billingHistory } from '../../src/server/db/schema/payments.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Spec §2 Billing History, §3 billing_history, §7 GET /api/billing-history.

const t = setupTestApp();
const db = () => t.database.db;

async function insertEntry(
  userId: string,
  overrides: Partial<typeof billingHistory.$inferInsert> & { minutesAgo?: number } = {},
) {
  const { minutesAgo = 0, ...values } = overrides;
  const [row] = await db()
    .insert(billingHistory)
    .values({
      userId,
      stripePaymentIntentId: 'pi_test_0123456789abcdef',
      amountCents: 1250,
      status: 'completed',
      description: 'Rental: Cordless drill',
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
      ...values,
    })
    .returning();
  return row!;
}

describe('GET /api/billing-history', () => {
  it('lists the signed-in person’s transactions only, newest first, amounts as decimal strings', async () => {
    const me = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const refunded = await insertEntry(me.user.id, {
      minutesAgo: 120,
      amountCents: 2000,
      status: 'refunded',
      kind: 'refund',
      providerRefundId: 're_test_0123456789abcdef',
      description: 'Deposit refund: Cordless drill',
      paymentMethodType: 'card',
      paymentMethodLast4: '4242',
      refundAmountCents: 2000,
      refundedAt: new Date('2026-03-02T10:00:00Z'),
    });
    const latest = await insertEntry(me.user.id, { minutesAgo: 1, amountCents: 5, status: 'pending' });
    const middle = await insertEntry(me.user.id, { minutesAgo: 30, amountCents: 100000 });
    await insertEntry(other.user.id, { description: 'Someone else’s rental' });

    const response = await t.get('/api/billing-history', me.cookie);
    expect(response.statusCode).toBe(200);
    const { transactions } = response.json();
    expect(transactions.map((e: { id: string }) => e.id)).toEqual([latest.id, middle.id, refunded.id]);
    expect(transactions.map((e: { amount: string }) => e.amount)).toEqual(['0.05', '1000.00', '20.00']);
    expect(transactions[2]).toEqual({
      id: refunded.id,
      reservationId: null,
      stripePaymentIntentId: 'pi_test_0123456789abcdef',
      amount: '20.00',
      currency: 'usd',
      status: 'refunded',
      // What the row is, and a refund's own id.
      kind: 'refund',
      refundId: 're_test_0123456789abcdef',
      description: 'Deposit refund: Cordless drill',
      paymentMethodType: 'card',
      paymentMethodLast4: '4242',
      refundAmount: '20.00',
      refundedAt: '2026-03-02T10:00:00.000Z',
      createdAt: refunded.createdAt.toISOString(),
      // A refund row names no fee: the fee is a line of the payment it was part of.
      serviceFee: null,
    });
    expect(transactions[0]).toMatchObject({
      status: 'pending',
      kind: 'payment',
      refundId: null,
      paymentMethodType: null,
      refundAmount: null,
      refundedAt: null,
    });
    expect(response.body).not.toContain('Someone else');
  });

  it('is empty for someone with no transactions', async () => {
    const { cookie } = await createSignedInUser(db());
    const response = await t.get('/api/billing-history', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ transactions: [] });
  });

  it('answers 401 when signed out, and for a stale session cookie', async () => {
    const signedOut = await t.get('/api/billing-history');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ message: 'Please sign in to continue.', code: 'UNAUTHORIZED' });
    expect((await t.get('/api/billing-history', 'cl_session=not-a-real-session')).statusCode).toBe(401);
  });

  it('only answers GET', async () => {
    const { cookie } = await createSignedInUser(db());
    expect((await t.post('/api/billing-history', {}, cookie)).statusCode).toBe(404);
  });
});
