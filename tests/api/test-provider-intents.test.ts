import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentError, TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import type { Database } from '../../src/server/db/client.ts';
import { testIdempotency, testPaymentIntents } from '../../src/server/db/schema/test-payments.ts';
import { VISA, VISA_3DS } from '../helpers/reservation-fixtures.ts';
import { createTestDatabase } from '../helpers/test-database.ts';

// The built-in test provider's payment intents, as Stripe answers them: one intent per idempotency key
// however many calls make it at once, and a card confirmed once, by the borrower the intent is for.

let database: Database;
let provider: TestPaymentProvider;
beforeAll(async () => {
  database = await createTestDatabase();
  provider = new TestPaymentProvider(database.db);
});
afterAll(async () => {
  await database?.close();
});

const DECLINED = { ...VISA, number: '4000 0000 0000 0002' };

const intentFor = (borrowerId: string, idempotencyKey = `pi-${randomUUID()}`) =>
  provider.createPaymentIntent({
    amountCents: 2500,
    currency: 'usd',
    customerId: null,
    metadata: { borrowerId, itemId: randomUUID(), startDate: '2026-12-03', endDate: '2026-12-05' },
    idempotencyKey,
  });

const rowOf = async (id: string) =>
  (await database.db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)))[0];

describe('making a payment intent', () => {
  it('makes one intent of many calls at once with one key, and answers a retry with it', async () => {
    const borrower = randomUUID();
    const key = `pi-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 12 }, () => intentFor(borrower, key)));
    const [first] = answers;
    expect(first).toMatchObject({ status: 'requires_payment_method', amountCents: 2500, card: null });
    for (const answer of answers) expect(answer).toEqual(first);
    expect(await intentFor(borrower, key)).toEqual(first);
    const made = await database.db
      .select({ id: testPaymentIntents.id })
      .from(testPaymentIntents)
      .where(sql`${testPaymentIntents.metadata} ->> 'borrowerId' = ${borrower}`);
    expect(made).toEqual([{ id: first!.id }]);
    // What the key answers is the intent as it was made, and as it is read.
    const [record] = await database.db.select().from(testIdempotency).where(eq(testIdempotency.key, key));
    expect(record?.result).toEqual(first);
    expect(await provider.retrievePaymentIntent(first!.id)).toEqual(first);
    // Another key is another intent.
    expect((await intentFor(borrower)).id).not.toBe(first!.id);
  });
});

describe('confirming a card', () => {
  it('authorises once of many confirmations at once, and answers each with the authorised intent', async () => {
    const borrower = randomUUID();
    const intent = await intentFor(borrower);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => provider.confirmPaymentIntent(intent.id, VISA, borrower)),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ id: intent.id, status: 'requires_capture', nextActionUrl: null });
      expect(answer.card).toMatchObject({ brand: 'visa', last4: '4242' });
    }
    expect(await rowOf(intent.id)).toMatchObject({ status: 'requires_capture', lastError: null });
  });

  it('keeps a declined card’s intent waiting with its error; a good card then authorises it', async () => {
    const borrower = randomUUID();
    const intent = await intentFor(borrower);
    const declined = await provider.confirmPaymentIntent(intent.id, DECLINED, borrower).catch((e) => e);
    expect(declined).toBeInstanceOf(PaymentError);
    expect(declined.statusCode).toBe(402);
    expect(await rowOf(intent.id)).toMatchObject({
      status: 'requires_payment_method',
      card: null,
      lastError: 'Your card was declined.',
    });
    const paid = await provider.confirmPaymentIntent(intent.id, VISA, borrower);
    expect(paid.status).toBe('requires_capture');
    // Once authorised, another card changes nothing: the intent is answered as it is.
    expect(await provider.confirmPaymentIntent(intent.id, DECLINED, borrower)).toEqual(paid);
    expect(await rowOf(intent.id)).toMatchObject({ status: 'requires_capture', lastError: null });
  });

  it('is missing to anyone but its borrower, and to everyone when it does not exist, changing nothing', async () => {
    const borrower = randomUUID();
    const intent = await intentFor(borrower);
    for (const [id, payer, card] of [
      [intent.id, randomUUID(), VISA],
      [intent.id, randomUUID(), DECLINED],
      ['pi_test_missing', borrower, VISA],
    ] as const) {
      const refused = await provider.confirmPaymentIntent(id, card, payer).catch((e) => e);
      expect(refused).toBeInstanceOf(PaymentError);
      expect(refused.statusCode).toBe(404);
    }
    expect(await rowOf(intent.id)).toMatchObject({ status: 'requires_payment_method', lastError: null });
  });

  it('asks a 3-D Secure card to authenticate; refused, the intent waits for a card again', async () => {
    const borrower = randomUUID();
    const intent = await intentFor(borrower);
    const asked = await provider.confirmPaymentIntent(intent.id, VISA_3DS, borrower);
    expect(asked.status).toBe('requires_action');
    expect(asked.nextActionUrl).toBe(`/payments/test/authenticate?payment_intent=${intent.id}`);
    // Confirming again while the bank asks answers the same question.
    expect((await provider.confirmPaymentIntent(intent.id, VISA, borrower)).status).toBe('requires_action');
    await provider.authenticatePaymentIntent(intent.id, false);
    expect((await provider.confirmPaymentIntent(intent.id, VISA, borrower)).status).toBe('requires_capture');
  });

  it('refuses to confirm an intent that was cancelled', async () => {
    const borrower = randomUUID();
    const intent = await intentFor(borrower);
    await provider.cancelPaymentIntent(intent.id, `cancel-${intent.id}`);
    const refused = await provider.confirmPaymentIntent(intent.id, VISA, borrower).catch((e) => e);
    expect(refused).toBeInstanceOf(PaymentError);
    expect(refused.statusCode).toBe(409);
  });
});
