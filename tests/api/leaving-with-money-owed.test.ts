import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/users.ts';
import { transaction } from '../../src/server/db/transaction.ts';
import { journal } from '../../src/server/features/ledger/journal.ts';
import { TEST_PASSWORD } from '../factories.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 058: an account is not deleted while money is owed to or by the person, as the journal says:
// a refund of theirs still on its way, earnings not yet paid out to them, or money they owe. The
// booking is the pinned one: $5/day for 2 days, a $20 deposit; strict, so a return keeps the rental.

const t = setupTestApp();
const db = () => t.database.db;
const remove = (cookie: string) => t.post('/api/account/delete', { currentPassword: TEST_PASSWORD }, cookie);

async function deleted(userId: string) {
  const [row] = await db().select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
  return row!.deletedAt !== null;
}

/** A booking returned and confirmed by the lender: the deposit's refund written, not yet made. */
async function finishedBooking() {
  const b = await bookingAt(t, 'returned', { policy: 'strict' });
  const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
  expect(done.statusCode, done.body).toBe(200);
  return b;
}

const paidOut = (b: Awaited<ReturnType<typeof finishedBooking>>, amountCents: number, source: string) =>
  transaction(db(), (tx) =>
    journal.transferSent(tx, {
      reservationId: b.id,
      paymentIntentId: b.intent,
      lenderId: b.lender.user.id,
      amountCents,
      source,
    }),
  );

describe('deleting an account while money is owed', () => {
  it('a borrower whose deposit is still on its way back is refused until the refund has gone through', async () => {
    const b = await finishedBooking();
    const refused = await remove(b.borrower.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ACCOUNT_IN_USE',
      message: expect.stringContaining('has not gone through yet'),
    });
    expect(await deleted(b.borrower.user.id)).toBe(false);
    await settlePayments(t);
    expect((await remove(b.borrower.cookie)).statusCode).toBeLessThan(300);
    expect(await deleted(b.borrower.user.id)).toBe(true);
  });

  it('a lender whose earnings are not paid out is refused, naming the amount; once paid out they may leave', async () => {
    const b = await finishedBooking();
    await settlePayments(t);
    const refused = await remove(b.lender.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ACCOUNT_IN_USE',
      message: expect.stringContaining('CampusLoop still owes you $10.00'),
    });
    expect(await deleted(b.lender.user.id)).toBe(false);
    await paidOut(b, 1000, 'transfer:all');
    expect((await remove(b.lender.cookie)).statusCode).toBeLessThan(300);
    expect(await deleted(b.lender.user.id)).toBe(true);
  });

  it('a lender paid out more than they earned owes the difference, and is refused', async () => {
    const b = await finishedBooking();
    await settlePayments(t);
    await paidOut(b, 1250, 'transfer:too-much');
    const refused = await remove(b.lender.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('You owe $2.50');
    expect(await deleted(b.lender.user.id)).toBe(false);
  });

  it('a borrower whose dispute took back money already paid out owes it, and is refused', async () => {
    const b = await finishedBooking();
    await settlePayments(t);
    await transaction(db(), (tx) =>
      journal.disputeFundsWithdrawn(tx, {
        reservationId: b.id,
        paymentIntentId: b.intent,
        borrowerId: b.borrower.user.id,
        amountCents: 1000,
        source: 'dispute:dp_owed:withdrawn',
      }),
    );
    const refused = await remove(b.borrower.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('You owe $10.00');
    expect(await deleted(b.borrower.user.id)).toBe(false);
  });

  it('answers in the reader’s language', async () => {
    const b = await finishedBooking();
    await settlePayments(t);
    expect((await t.put('/api/account/language', { locale: 'es' }, b.lender.cookie)).statusCode).toBe(200);
    const refused = await remove(b.lender.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('CampusLoop todavía te debe');
  });
});
