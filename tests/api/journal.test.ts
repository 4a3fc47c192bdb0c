import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { transaction } from '../../src/server/db/transaction.ts';
import { journal } from '../../src/server/features/ledger/journal.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 058: every money movement is a journal transaction whose lines add up to zero, written when
// the provider has moved the money. The booking is the pinned one: $5/day for 2 days, a $20 deposit.
// After every test the money checks (tests/helpers/money.ts) hold the journal to the billing rows, the
// earning entries and the provider.

let flaky!: ReturnType<typeof flakyProvider>;
const t = setupTestApp(WITHOUT_SERVICE_FEE, {
  payments: (db) => {
    flaky = flakyProvider(new TestPaymentProvider(db));
    return flaky.provider;
  },
});
const db = () => t.database.db;

/** A booking's journal as 'kind account:cents' lines, in the order they were written. */
async function journalOf(reservationId: string) {
  const { rows } = await db().execute<{ kind: string; account: string; amount_cents: number }>(sql`
    select t.kind, l.account, l.amount_cents
    from journal_transactions t join journal_lines l on l.transaction_id = t.id
    where t.reservation_id = ${reservationId}
    order by t.seq, l.amount_cents desc`);
  return rows.map((r) => `${r.kind} ${r.account}:${r.amount_cents}`);
}

async function booksOf(reservationId: string) {
  const [books] = await journal.booksOfBookings(db(), [reservationId]);
  return books;
}

async function kindsOf(reservationId: string) {
  const { rows } = await db().execute<{ kind: string }>(
    sql`select kind from journal_transactions where reservation_id = ${reservationId} order by seq`,
  );
  return rows.map((r) => r.kind);
}

describe('the journal of a booking', () => {
  it('journals nothing until the provider has charged; then the charge and the lender’s earning', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    expect(await journalOf(b.id)).toEqual([]);
    await settlePayments(t);
    expect(await journalOf(b.id)).toEqual([
      'capture provider_cash:3000',
      'capture borrower:-3000',
      'earning borrower:1000',
      'earning lender_payable:-1000',
    ]);
    expect(await booksOf(b.id)).toMatchObject({
      capturedCents: 3000,
      payableCents: 1000,
      heldCents: 2000,
    });
  });

  it('the deposit back on return is a refund: nothing of the borrower’s is held after', async () => {
    const b = await bookingAt(t, 'returned', { policy: 'strict' });
    const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
    expect(done.statusCode, done.body).toBe(200);
    await settlePayments(t);
    expect(await booksOf(b.id)).toMatchObject({
      capturedCents: 3000,
      refundedCents: 2000,
      payableCents: 1000,
      heldCents: 0,
    });
  });

  it('a lender’s cancellation after the charge: the refund, and the earning taken back', async () => {
    const b = await bookingAt(t, 'approved');
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    // The refund has not been made: the journal still says the money is held, and the earning stands.
    expect(await booksOf(b.id)).toMatchObject({ refundedCents: 0, payableCents: 1000 });
    await settlePayments(t);
    expect(await booksOf(b.id)).toMatchObject({
      capturedCents: 3000,
      refundedCents: 3000,
      payableCents: 0,
      heldCents: 0,
    });
  });

  it('a cancellation before the charge ran: no money moved, only the release is recorded', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(await journalOf(b.id)).toEqual([]);
    expect(await kindsOf(b.id)).toEqual(['release']);
  });

  it('an early return: the refunded rental comes out of the lender’s payable', async () => {
    const b = await bookingAt(t, 'returned', { days: { from: 0, to: 4 } });
    await settlePayments(t);
    const books = await booksOf(b.id);
    expect(books).toMatchObject({ capturedCents: 4000, payableCents: 500 });
    expect(books!.refundedCents).toBeGreaterThanOrEqual(1500);
  });

  it('a charge the provider failed to make is journalled once, when the retry succeeds', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    flaky.failNext('capturePaymentIntent', 1);
    await settlePayments(t);
    expect(await journalOf(b.id)).toEqual([]);
    await settlePayments(t);
    await settlePayments(t);
    expect(await kindsOf(b.id)).toEqual(['capture', 'earning']);
  });

  it('five runners at once journal the charge once', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    await Promise.all(Array.from({ length: 5 }, () => settlePayments(t)));
    expect(await kindsOf(b.id)).toEqual(['capture', 'earning']);
  });

  it('an earning kept from the deposit while other changes run at once is journalled exactly', async () => {
    const claim = { description: 'A deep scratch across the front of the lens.', amount: '8.00' };
    const b = await bookingAt(t, 'claimed', { policy: 'strict', claim });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.post(`/api/reservations/${b.id}/claim/accept`, {}, b.borrower.cookie),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    await Promise.all([settlePayments(t), settlePayments(t)]);
    expect(await booksOf(b.id)).toMatchObject({ capturedCents: 3000, payableCents: 1800 });
  });
});

describe('the database keeps the journal', () => {
  it('refuses to change or delete a line or a transaction', async () => {
    const b = await bookingAt(t, 'approved');
    await expect(db().execute(sql`update journal_lines set amount_cents = 1`)).rejects.toThrow();
    await expect(db().execute(sql`delete from journal_lines`)).rejects.toThrow();
    await expect(db().execute(sql`update journal_transactions set kind = 'fee'`)).rejects.toThrow();
    await expect(db().execute(sql`delete from journal_transactions`)).rejects.toThrow();
    expect(await kindsOf(b.id)).toEqual(['capture', 'earning']);
  });

  it('refuses a transaction whose lines do not add up to zero, and keeps nothing of it', async () => {
    const before = await db().execute<{ n: number }>(sql`select count(*)::int as n from journal_lines`);
    const refused = await transaction(
      db(),
      async (tx) => {
        const { rows } = await tx.execute<{ id: string }>(
          sql`insert into journal_transactions (kind) values ('fee') returning id`,
        );
        await tx.execute(sql`insert into journal_lines (transaction_id, account, amount_cents)
            values (${rows[0]!.id}, 'borrower', 500), (${rows[0]!.id}, 'platform_fees', -400)`);
      },
      { attempts: 1 },
    ).then(
      () => null,
      (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
    );
    expect(refused).toMatch(/does not balance/);
    const after = await db().execute<{ n: number }>(sql`select count(*)::int as n from journal_lines`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});

describe('postings for transfers, fees and disputes', () => {
  it('each moves money between two accounts, once per source, and the booking still balances', async () => {
    const b = await bookingAt(t, 'approved');
    const of = { reservationId: b.id, paymentIntentId: b.intent };
    const lender = { ...of, lenderId: b.lender.user.id };
    const borrower = { ...of, borrowerId: b.borrower.user.id };
    await transaction(db(), async (tx) => {
      expect(await journal.transferSent(tx, { ...lender, amountCents: 1000, source: 'transfer:tr_1' })).toBe(
        true,
      );
      expect(await journal.transferSent(tx, { ...lender, amountCents: 1000, source: 'transfer:tr_1' })).toBe(
        false,
      );
      await journal.transferReversed(tx, { ...lender, amountCents: 300, source: 'reversal:trr_1' });
      await journal.disputeFundsWithdrawn(tx, { ...borrower, amountCents: 3000, source: 'dispute:dp_1:out' });
      await journal.disputeFundsReinstated(tx, { ...borrower, amountCents: 3000, source: 'dispute:dp_1:in' });
      await journal.disputeFundsWithdrawn(tx, { ...borrower, amountCents: 500, source: 'dispute:dp_2:out' });
    });
    expect(await booksOf(b.id)).toEqual({
      reservationId: b.id,
      capturedCents: 3000,
      refundedCents: 0,
      disputedCents: 500,
      transferredCents: 1000,
      reversedCents: 300,
      feesCents: 0,
      payableCents: 300,
      heldCents: 1500,
    });
    // captured − refunded − disputed = transferred − reversed + fees + payable + held
    expect(3000 - 0 - 500).toBe(1000 - 300 + 0 + 300 + 1500);
    expect(await journal.payableOf(db(), b.lender.user.id)).toBe(300);
    expect(await journal.unbalancedTransactions(db())).toEqual([]);
  });

  it('refuses an amount that is not a positive whole number of cents, writing nothing', async () => {
    const b = await bookingAt(t, 'approved');
    const what = { reservationId: b.id, paymentIntentId: b.intent, lenderId: b.lender.user.id };
    for (const amountCents of [0, -5, 1.5]) {
      await expect(
        transaction(
          db(),
          (tx) => journal.transferSent(tx, { ...what, amountCents, source: `t:${amountCents}` }),
          {
            attempts: 1,
          },
        ),
      ).rejects.toThrow(/positive whole number/);
    }
    expect(await kindsOf(b.id)).toEqual(['capture', 'earning']);
  });
});
