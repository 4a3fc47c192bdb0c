import { describe, expect, it } from 'vitest';
import { type Booking, billingRows, bookingAt, providerSteps } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The money of a paid booking ($5/day for 2 days, its $1 service fee at the default rates (10 %, at
// least $1), a $20 deposit: $31 held), pinned after each step of its life:
// which billing rows exist (kind, amount, status, whose) and which provider calls were made (payment
// steps: kind, purpose, amount, status). The reservation and extension code is about to be reshaped
// around one ledger; this file is what says the money did not move while it was. Both databases.

const t = setupTestApp();

/** The booking's billing rows and payment steps, after the worker ran whatever was waiting. */
async function ledger(b: Booking, settle = true) {
  if (settle) await settlePayments(t);
  const whose = (userId: string) =>
    userId === b.borrower.user.id ? 'borrower' : userId === b.lender.user.id ? 'lender' : 'someone else';
  const rows = await billingRows(t, { reservationId: b.id });
  return {
    billing: rows.map((r) => `${whose(r.userId)} ${r.kind}:${r.amountCents}:${r.status}`).sort(),
    steps: await providerSteps(t, b.intent),
  };
}

const put = (b: Booking, status: string, cookie: string) =>
  t.put(`/api/reservations/${b.id}`, { status }, cookie);

const b3100 = 'borrower payment:3100:completed';
const l1000 = 'lender earning:1000:completed';
const capture = 'capture:approval:3100:succeeded';

describe('the money of a paid booking, step by step', () => {
  it('request: the card is authorised, nothing is charged, no provider call waits', async () => {
    const b = await bookingAt(t, 'requested');
    expect(await ledger(b)).toEqual({ billing: ['borrower payment:3100:pending'], steps: [] });
  });

  it('approve: the capture is written for the worker, then the payment and the lender’s earning complete', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    expect(await ledger(b, false)).toEqual({
      billing: ['borrower payment:3100:pending', 'lender earning:1000:pending'],
      steps: ['capture:approval:3100:pending'],
    });
    expect(await ledger(b)).toEqual({ billing: [b3100, l1000], steps: [capture] });
  });

  it('decline: the authorisation is released, nobody earns', async () => {
    const b = await bookingAt(t, 'requested');
    const decline = await t.post(
      `/api/reservations/${b.id}/decline`,
      { reason: 'Away that weekend' },
      b.lender.cookie,
    );
    expect(decline.statusCode, decline.body).toBe(200);
    expect(await ledger(b)).toEqual({
      billing: ['borrower payment:3100:refunded'],
      steps: ['release:decline:3100:succeeded'],
    });
  });

  it('cancel before approval: the authorisation is released', async () => {
    const b = await bookingAt(t, 'requested');
    expect((await put(b, 'cancelled', b.borrower.cookie)).statusCode).toBe(200);
    expect(await ledger(b)).toEqual({
      billing: ['borrower payment:3100:refunded'],
      steps: ['release:cancellation:3100:succeeded'],
    });
  });

  it.each([
    ['flexible', 2000, 1000],
    // Half the rental kept: half the fee comes back with the other half.
    ['moderate', 2550, 500],
    ['strict', 2000, 1000],
  ] as const)(
    'cancel after approval by the borrower (%s): refunded %i, the lender keeps %i',
    async (policy, refund, kept) => {
      const b = await bookingAt(t, 'approved', { policy });
      expect((await put(b, 'cancelled', b.borrower.cookie)).statusCode).toBe(200);
      expect(await ledger(b)).toEqual({
        billing: [b3100, `borrower refund:${refund}:refunded`, `lender earning:${kept}:completed`],
        steps: [capture, `refund:policy:${refund}:succeeded`],
      });
    },
  );

  it('cancel after approval by the lender: everything back, the earning refunded', async () => {
    const b = await bookingAt(t, 'approved');
    expect((await put(b, 'cancelled', b.lender.cookie)).statusCode).toBe(200);
    expect(await ledger(b)).toEqual({
      billing: [b3100, 'borrower refund:3100:refunded', 'lender earning:1000:refunded'],
      steps: [capture, 'refund:cancellation:3100:succeeded'],
    });
  });

  it('pickup and the return: no money moves until the lender answers', async () => {
    // Strict: a return before the last day refunds no rental (an early return has its own test).
    const b = await bookingAt(t, 'active', { policy: 'strict' });
    expect(await ledger(b)).toEqual({ billing: [b3100, l1000], steps: [capture] });
    expect((await put(b, 'returned', b.borrower.cookie)).statusCode).toBe(200);
    expect(await ledger(b)).toEqual({ billing: [b3100, l1000], steps: [capture] });
  });

  it('the lender confirms the return: the deposit comes back', async () => {
    const b = await bookingAt(t, 'returned', { policy: 'strict', days: { from: 0, to: 2 } });
    expect((await put(b, 'completed', b.lender.cookie)).statusCode).toBe(200);
    expect(await ledger(b)).toEqual({
      billing: [b3100, 'borrower refund:2000:refunded', l1000],
      steps: [capture, 'refund:deposit:2000:succeeded'],
    });
  });

  it('early return (flexible, 4 days, back on the first): the unused rental comes back, with its share of the fee', async () => {
    // $20 of rental, its $2 fee: 3 of 4 days back is $15 and $1.50 of the fee.
    const b = await bookingAt(t, 'returned', { days: { from: 0, to: 4 } });
    expect(await ledger(b)).toEqual({
      billing: [
        'borrower payment:4200:completed',
        'borrower refund:1650:refunded',
        'lender earning:500:completed',
      ],
      steps: ['capture:approval:4200:succeeded', 'refund:early_return:1650:succeeded'],
    });
  });

  it('a claim: nothing moves while it is open; accepted, the lender keeps the claim and the rest comes back', async () => {
    const claim = { description: 'A deep scratch across the front of the lens.', amount: '8.00' };
    const b = await bookingAt(t, 'claimed', { policy: 'strict', claim });
    expect(await ledger(b)).toEqual({ billing: [b3100, l1000], steps: [capture] });
    const accept = await t.post(`/api/reservations/${b.id}/claim/accept`, {}, b.borrower.cookie);
    expect(accept.statusCode, accept.body).toBe(200);
    expect(await ledger(b)).toEqual({
      billing: [b3100, 'borrower refund:1200:refunded', 'lender earning:1800:completed'],
      steps: [capture, 'refund:claim:1200:succeeded'],
    });
  });

  it('a disputed claim: nothing moves until a moderator decides', async () => {
    const b = await bookingAt(t, 'disputed', { policy: 'strict' });
    expect(await ledger(b)).toEqual({ billing: [b3100, l1000], steps: [capture] });
  });

  it('an extension: authorised on its own payment with the fee on its rental, captured when the lender approves', async () => {
    const b = await bookingAt(t, 'approved', { extension: { to: 5, rentalAmount: '10.00' } });
    const extensionIntent = b.extension!.paymentIntentId!;
    expect(await ledger(b)).toEqual({
      billing: ['borrower payment:1100:pending', b3100, l1000],
      steps: [capture],
    });
    expect(await providerSteps(t, extensionIntent)).toEqual([]);
    const approve = await t.post(`/api/extensions/${b.extension!.extension.id}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    expect(await ledger(b)).toEqual({
      billing: ['borrower payment:1100:completed', b3100, l1000, l1000],
      steps: [capture],
    });
    expect(await providerSteps(t, extensionIntent)).toEqual(['capture:approval:1100:succeeded']);
  });
});
