import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { savedPaymentMethods } from '../../src/server/db/schema/payments.ts';
import { paymentEvents, testPaymentMethods } from '../../src/server/db/schema/test-payments.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { createSignedInUser } from '../factories.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Saved cards with the built-in test provider (spec §2 Payment Methods, §7).

const t = setupTestApp();
const db = () => t.database.db;

// On PostgreSQL the helper force-drops the database right after pool.end() resolves, while the
// connections the race test below opened may still be closing; their "terminating connection"
// errors are teardown noise, not failures. (The same race shows in reservations.test.ts.)
beforeAll(() => {
  t.database.pool?.on('error', () => {});
});

const VISA = { number: '4242 4242 4242 4242', ...cardExpiry(12), cvc: '123' };
const MASTERCARD = { number: '5555555555554444', ...cardExpiry(3, 5), cvc: '321' };
/** Saved cards written straight into the tables. */
const STORED_EXPIRY = cardExpiry(4);
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

let pmCounter = 0;
/** A saved card row, `minutesAgo` old. */
async function insertCard(
  userId: string,
  overrides: Partial<typeof savedPaymentMethods.$inferInsert> & { minutesAgo?: number } = {},
) {
  const { minutesAgo = 0, ...values } = overrides;
  const [row] = await db()
    .insert(savedPaymentMethods)
    .values({
      userId,
      stripePaymentMethodId: `pm_row_${++pmCounter}_${Date.now()}`,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      expiryMonth: STORED_EXPIRY.expMonth,
      expiryYear: STORED_EXPIRY.expYear,
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
      ...values,
    })
    .returning();
  return row!;
}

const cardsOf = (userId: string) =>
  db().select().from(savedPaymentMethods).where(eq(savedPaymentMethods.userId, userId));

describe('GET /api/config', () => {
  it('names the test provider, without a publishable key, and keeps Stripe out of the CSP', async () => {
    const response = await t.get('/api/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ payments: { provider: 'test', publishableKey: null } });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).not.toContain('stripe.com');
    expect(csp).not.toContain('frame-src');
  });
});

describe('GET /api/payment-methods', () => {
  it('lists only the signed-in person’s cards, newest first', async () => {
    const me = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const old = await insertCard(me.user.id, { minutesAgo: 60, isDefault: true, last4: '1111' });
    const recent = await insertCard(me.user.id, { minutesAgo: 1, brand: 'mastercard', last4: '4444' });
    await insertCard(other.user.id, { last4: '9999' });

    const response = await t.get('/api/payment-methods', me.cookie);
    expect(response.statusCode).toBe(200);
    const { paymentMethods } = response.json();
    expect(paymentMethods).toEqual([
      {
        id: recent.id,
        type: 'card',
        brand: 'mastercard',
        last4: '4444',
        expiryMonth: STORED_EXPIRY.expMonth,
        expiryYear: STORED_EXPIRY.expYear,
        isDefault: false,
        createdAt: recent.createdAt.toISOString(),
      },
      expect.objectContaining({ id: old.id, last4: '1111', isDefault: true }),
    ]);
    // The provider's id of a card never leaves the server.
    expect(response.body).not.toContain('pm_row_');
  });

  it('is empty for someone with no cards, and 401 when signed out', async () => {
    const { cookie } = await createSignedInUser(db());
    expect((await t.get('/api/payment-methods', cookie)).json()).toEqual({ paymentMethods: [] });
    const signedOut = await t.get('/api/payment-methods');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().code).toBe('UNAUTHORIZED');
  });
});

describe('PUT /api/payment-methods/:id', () => {
  it('makes the card the one default', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const first = await insertCard(user.id, { isDefault: true, minutesAgo: 10 });
    const second = await insertCard(user.id, { minutesAgo: 5 });

    const response = await t.put(`/api/payment-methods/${second.id}`, { isDefault: true }, cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const cards = await cardsOf(user.id);
    expect(cards.filter((c) => c.isDefault).map((c) => c.id)).toEqual([second.id]);

    // Again on the default card: nothing changes.
    await t.put(`/api/payment-methods/${second.id}`, { isDefault: true }, cookie);
    expect((await cardsOf(user.id)).filter((c) => c.isDefault).map((c) => c.id)).toEqual([second.id]);
    expect(first.id).not.toBe(second.id);
  });

  it('keeps one default when many requests race', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const cards = await Promise.all([0, 1, 2, 3].map((i) => insertCard(user.id, { minutesAgo: i })));
    const responses = await Promise.all(
      cards.map((c) => t.put(`/api/payment-methods/${c.id}`, { isDefault: true }, cookie)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await cardsOf(user.id)).filter((c) => c.isDefault)).toHaveLength(1);
  });

  it.each([
    ['isDefault false', { isDefault: false }],
    ['no isDefault', {}],
    ['isDefault as text', { isDefault: 'true' }],
  ])('refuses bad input (%s) with a 400 and changes nothing', async (_name, body) => {
    const { user, cookie } = await createSignedInUser(db());
    const card = await insertCard(user.id);
    const response = await t.put(`/api/payment-methods/${card.id}`, body, cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'isDefault' }] });
    expect((await cardsOf(user.id))[0]!.isDefault).toBe(false);
  });

  it('answers 404 for another person’s card or an unknown id, 400 for a malformed id, 401 signed out', async () => {
    const me = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const theirs = await insertCard(other.user.id);

    const foreign = await t.put(`/api/payment-methods/${theirs.id}`, { isDefault: true }, me.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ message: 'Payment method not found.' });
    expect((await cardsOf(other.user.id))[0]!.isDefault).toBe(false);

    expect(
      (await t.put(`/api/payment-methods/${MISSING_ID}`, { isDefault: true }, me.cookie)).statusCode,
    ).toBe(404);
    expect((await t.put('/api/payment-methods/not-a-uuid', { isDefault: true }, me.cookie)).statusCode).toBe(
      400,
    );
    expect((await t.put(`/api/payment-methods/${theirs.id}`, { isDefault: true })).statusCode).toBe(401);
  });

  it('refuses a request from another site', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const card = await insertCard(user.id);
    const response = await t.request({
      method: 'PUT',
      url: `/api/payment-methods/${card.id}`,
      payload: { isDefault: true },
      cookie,
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect((await cardsOf(user.id))[0]!.isDefault).toBe(false);
  });
});

describe('DELETE /api/payment-methods/:id', () => {
  it('detaches the card at the provider, then forgets it; the newest other card becomes default', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const older = await insertCard(user.id, { minutesAgo: 30 });
    const newer = await insertCard(user.id, { minutesAgo: 20 });
    const isDefault = await insertCard(user.id, { minutesAgo: 40, isDefault: true });
    await db().insert(testPaymentMethods).values({
      id: isDefault.stripePaymentMethodId,
      customerId: 'cus_test_x',
      brand: 'visa',
      last4: '4242',
      expiryMonth: STORED_EXPIRY.expMonth,
      expiryYear: STORED_EXPIRY.expYear,
    });

    const response = await t.del(`/api/payment-methods/${isDefault.id}`, cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const [detached] = await db()
      .select()
      .from(testPaymentMethods)
      .where(eq(testPaymentMethods.id, isDefault.stripePaymentMethodId));
    expect(detached!.detached).toBeInstanceOf(Date);
    const left = await cardsOf(user.id);
    expect(left.map((c) => [c.id, c.isDefault]).sort()).toEqual(
      [
        [older.id, false],
        [newer.id, true],
      ].sort(),
    );
  });

  it('answers 404 for another person’s card (which stays), 400 for a malformed id, 401 signed out', async () => {
    const me = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const theirs = await insertCard(other.user.id);
    expect((await t.del(`/api/payment-methods/${theirs.id}`, me.cookie)).statusCode).toBe(404);
    expect((await t.del(`/api/payment-methods/${MISSING_ID}`, me.cookie)).statusCode).toBe(404);
    expect((await t.del('/api/payment-methods/42', me.cookie)).statusCode).toBe(400);
    expect((await t.del(`/api/payment-methods/${theirs.id}`)).statusCode).toBe(401);
    expect(await cardsOf(other.user.id)).toHaveLength(1);
  });
});

describe('adding a card (SetupIntent, confirmed in the browser, then saved)', () => {
  async function addCard(cookie: string, card = VISA) {
    const setup = await t.post('/api/payment-methods/setup-intent', {}, cookie);
    expect(setup.statusCode).toBe(200);
    const { setupIntentId, clientSecret } = setup.json();
    expect(clientSecret).toMatch(/^seti_test_\w+_secret_\w+$/);
    const confirm = await t.post('/api/payments/test/confirm-setup', { setupIntentId, card }, cookie);
    expect(confirm.statusCode).toBe(200);
    return { setupIntentId, saved: await t.post('/api/payment-methods', { setupIntentId }, cookie) };
  }

  it('saves the confirmed card; the first card is the default, the next is not', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const first = await addCard(cookie);
    expect(first.saved.statusCode).toBe(201);
    expect(first.saved.json().paymentMethod).toEqual({
      id: expect.any(String),
      type: 'card',
      brand: 'visa',
      last4: '4242',
      expiryMonth: VISA.expMonth,
      expiryYear: VISA.expYear,
      isDefault: true,
      createdAt: expect.any(String),
    });
    // The provider's customer is stored for next time.
    const [stored] = await db().select().from(users).where(eq(users.id, user.id));
    expect(stored!.stripeCustomerId).toBe(`cus_test_${user.id.replaceAll('-', '')}`);

    const second = await addCard(cookie, MASTERCARD);
    expect(second.saved.json().paymentMethod).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      isDefault: false,
    });
    const list = (await t.get('/api/payment-methods', cookie)).json().paymentMethods;
    expect(list.map((c: { last4: string }) => c.last4)).toEqual(['4444', '4242']);
  });

  it('answers 409 when the same card setup is saved twice', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const { setupIntentId } = await addCard(cookie);
    const again = await t.post('/api/payment-methods', { setupIntentId }, cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This card is already saved.', code: 'CARD_ALREADY_SAVED' });
    expect(await cardsOf(user.id)).toHaveLength(1);
  });

  it('refuses a card setup that is not confirmed, unknown, or someone else’s', async () => {
    const me = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const { setupIntentId } = (await t.post('/api/payment-methods/setup-intent', {}, me.cookie)).json();

    const unconfirmed = await t.post('/api/payment-methods', { setupIntentId }, me.cookie);
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().message).toBe(
      'This card has not been confirmed yet. Please enter your card details again.',
    );
    expect((await t.post('/api/payment-methods', { setupIntentId: 'seti_nope' }, me.cookie)).statusCode).toBe(
      400,
    );

    // Only its owner can confirm it, and nobody else can save it once confirmed.
    const foreignConfirm = await t.post(
      '/api/payments/test/confirm-setup',
      { setupIntentId, card: VISA },
      other.cookie,
    );
    expect(foreignConfirm.statusCode).toBe(404);
    await t.post('/api/payments/test/confirm-setup', { setupIntentId, card: VISA }, me.cookie);
    await t.post('/api/payment-methods/setup-intent', {}, other.cookie);
    const stolen = await t.post('/api/payment-methods', { setupIntentId }, other.cookie);
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().message).toBe('This card was added by another account.');
    expect(await cardsOf(other.user.id)).toHaveLength(0);
  });

  it('passes on a declined card at confirmation, and saves nothing', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const { setupIntentId } = (await t.post('/api/payment-methods/setup-intent', {}, cookie)).json();
    const declined = await t.post(
      '/api/payments/test/confirm-setup',
      { setupIntentId, card: { ...VISA, number: '4000000000000002' } },
      cookie,
    );
    expect(declined.statusCode).toBe(402);
    expect(declined.json().message).toBe('Your card was declined.');
    expect((await t.post('/api/payment-methods', { setupIntentId }, cookie)).statusCode).toBe(400);
    expect(await cardsOf(user.id)).toHaveLength(0);
  });

  it.each([
    ['missing setupIntentId', {}],
    ['blank setupIntentId', { setupIntentId: '  ' }],
    ['number', { setupIntentId: 42 }],
    ['oversize', { setupIntentId: 'x'.repeat(201) }],
  ])('refuses bad input (%s) with a 400', async (_name, body) => {
    const { cookie } = await createSignedInUser(db());
    const response = await t.post('/api/payment-methods', body, cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'setupIntentId' }] });
  });

  it('needs a signed-in person', async () => {
    expect((await t.post('/api/payment-methods/setup-intent', {})).statusCode).toBe(401);
    expect((await t.post('/api/payment-methods', { setupIntentId: 'seti_x' })).statusCode).toBe(401);
  });
});

describe('POST /api/payments/webhook without Stripe', () => {
  it('answers 404 and records nothing', async () => {
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(paymentEvents);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      payload: JSON.stringify({ id: 'evt_1', type: 'setup_intent.succeeded' }),
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Stripe webhooks are not configured.', code: 'NOT_FOUND' });
    const after = await db().select({ n: sql<number>`count(*)::int` }).from(paymentEvents);
    expect(after).toEqual(before);
  });
});
