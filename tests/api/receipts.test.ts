import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../src/server/adapters/mail/mailer.ts';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { sendReceipts } from '../../src/server/features/ledger/receipts.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { readOutbox, recipients } from '../helpers/outbox.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 058: a receipt e-mail to the borrower for each charge and each refund the provider made, with
// its lines, in the borrower's language, once per step however often the step or the sender ran. The
// booking is the pinned one: $5/day for 2 days, a $20 deposit.

let flaky!: ReturnType<typeof flakyProvider>;
const t = setupTestApp(WITHOUT_SERVICE_FEE, {
  payments: (db) => {
    flaky = flakyProvider(new TestPaymentProvider(db));
    return flaky.provider;
  },
});
const mailer = (): Mailer => (t.app as unknown as { mailer: Mailer }).mailer;
const send = () => sendReceipts({ db: t.database.db, mailer: mailer() });

async function receiptsTo(email: string) {
  return (await readOutbox(t.outboxDir)).filter(
    (m) =>
      recipients(m).includes(email.toLowerCase()) && /receipt|refund|recibo|reembolso/i.test(m.subject ?? ''),
  );
}

describe('receipts', () => {
  it('a charge: one receipt with the rental, the deposit and the total; sending again sends nothing', async () => {
    const b = await bookingAt(t, 'approved');
    expect(await send()).toBe(1);
    expect(await send()).toBe(0);
    const mails = await receiptsTo(b.borrower.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your CampusLoop receipt: ${b.item.title}`);
    const text = mails[0]!.text ?? '';
    expect(text).toContain('Your card was charged $30.00');
    expect(text).toContain('Rental: $10.00');
    expect(text).toContain('Deposit (given back when the item is returned): $20.00');
    expect(text).toContain('Total charged: $30.00');
    // Nothing for the lender: a receipt is the payer's.
    expect(await receiptsTo(b.lender.user.email)).toEqual([]);
  });

  it('a refund: what came back of each, once', async () => {
    const b = await bookingAt(t, 'returned', { policy: 'strict' });
    await send();
    const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
    expect(done.statusCode).toBe(200);
    await settlePayments(t);
    expect(await send()).toBe(1);
    const refund = (await receiptsTo(b.borrower.user.email)).find((m) => /refund/i.test(m.subject ?? ''));
    expect(refund?.subject).toBe(`Your CampusLoop refund: ${b.item.title}`);
    expect(refund?.text).toContain('Deposit refunded: $20.00');
    expect(refund?.text).toContain('Total refunded: $20.00');
    expect(refund?.text).not.toContain('Rental refunded');
  });

  it('a lender’s cancellation after the charge: the rental and the deposit back', async () => {
    const b = await bookingAt(t, 'approved');
    await send();
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    await send();
    const refund = (await receiptsTo(b.borrower.user.email)).find((m) => /refund/i.test(m.subject ?? ''));
    expect(refund?.text).toContain('Rental refunded: $10.00');
    expect(refund?.text).toContain('Deposit refunded: $20.00');
    expect(refund?.text).toContain('Total refunded: $30.00');
  });

  it('a charge the provider failed first and made on the retry owes one receipt', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    flaky.failNext('capturePaymentIntent', 2);
    for (let round = 0; round < 4; round++) await settlePayments(t);
    await send();
    await send();
    expect(await receiptsTo(b.borrower.user.email)).toHaveLength(1);
  });

  it('a mailer that fails keeps the receipt for the next round, then sends it once', async () => {
    const b = await bookingAt(t, 'approved');
    const failing: Mailer = {
      kind: 'outbox',
      send: async () => {
        throw new Error('SMTP is down');
      },
      close: () => {},
    };
    expect(await sendReceipts({ db: t.database.db, mailer: failing })).toBe(0);
    expect(await receiptsTo(b.borrower.user.email)).toHaveLength(0);
    expect(await send()).toBe(1);
    expect(await send()).toBe(0);
    expect(await receiptsTo(b.borrower.user.email)).toHaveLength(1);
  });

  it('is written in the borrower’s language', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    expect((await t.put('/api/account/language', { locale: 'es' }, b.borrower.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    await send();
    const [mail] = await receiptsTo(b.borrower.user.email);
    expect(mail?.subject).toBe(`Tu recibo de CampusLoop: ${b.item.title}`);
    expect(mail?.text).toContain('Alquiler: $10.00');
  });

  it('two senders at once send each receipt once', async () => {
    const b = await bookingAt(t, 'approved');
    const counts = await Promise.all([send(), send(), send()]);
    expect(counts.reduce((a, c) => a + c, 0)).toBe(1);
    expect(await receiptsTo(b.borrower.user.email)).toHaveLength(1);
    const { rows } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from receipts where sent_at is null`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe('receipts with the service fee', () => {
  const withFee = setupTestApp();

  it('a charge lists the service fee as its own line', async () => {
    const b = await bookingAt(withFee, 'approved');
    await settlePayments(withFee);
    const feeMailer = (withFee.app as unknown as { mailer: Mailer }).mailer;
    await sendReceipts({ db: withFee.database.db, mailer: feeMailer });
    const charged = (await readOutbox(withFee.outboxDir)).filter(
      (m) =>
        recipients(m).includes(b.borrower.user.email.toLowerCase()) &&
        (m.subject ?? '').startsWith('Your CampusLoop receipt'),
    );
    expect(charged).toHaveLength(1);
    const text = charged[0]!.text ?? '';
    // $10 rental: a 10 % fee is below the $1 minimum, so the fee is $1.00.
    expect(text).toContain('Rental: $10.00');
    expect(text).toContain('Service fee: $1.00');
    expect(text).toContain('Total charged: $31.00');
  });
});
