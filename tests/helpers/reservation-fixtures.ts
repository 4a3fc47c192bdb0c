import { campusToday } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { cardExpiry } from './cards.ts';
import type { TestContext } from './test-app.ts';

// Reservation scenarios for API tests: a lender's paid item and a borrower, and the Reserve dialog's
// calls (payment intent, card confirmation, request), as the web app makes them.

export const TZ = 'America/Los_Angeles';

/** A calendar day `n` days from the campus's today. */
export function day(n: number): string {
  const d = new Date(`${campusToday(TZ).date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Stripe's test Visa, with an expiry a few years from now (a fixed year would expire one day). */
export const VISA = { number: '4242 4242 4242 4242', ...cardExpiry(12), cvc: '123' };
/** Stripe's 3-D Secure test card: the bank asks the cardholder to authenticate. */
export const VISA_3DS = { ...VISA, number: '4000 0027 6000 3184' };

/** A lender with a paid item ($5/day, $20 deposit) unless told otherwise, a borrower and a stranger. */
export async function scenario(
  t: TestContext,
  item: Partial<Parameters<typeof createItem>[1]> = {},
  options: Parameters<typeof createItem>[2] = {},
) {
  const db = t.database.db;
  const lender = await createSignedInUser(db);
  const borrower = await createSignedInUser(db);
  const stranger = await createSignedInUser(db);
  const it = await createItem(
    db,
    {
      userId: lender.user.id,
      title: 'Cordless drill',
      rentalPriceCents: 500,
      rentalPeriod: 'day',
      depositCents: 2000,
      ...item,
    },
    options,
  );
  return { lender, borrower, stranger, item: it };
}

/** Step 2 of the Reserve dialog: a payment intent for these dates at the item's $5/day + $20. */
export async function quoteFor(
  t: TestContext,
  cookie: string,
  itemId: string,
  startDate: string,
  endDate: string,
) {
  const days = Math.max(1, Math.round((Date.parse(endDate) - Date.parse(startDate)) / 86_400_000));
  return t.post(
    '/api/create-payment-intent',
    { itemId, startDate, endDate, depositAmount: '20.00', rentalAmount: String(5 * days) },
    cookie,
  );
}

/** The Reserve dialog's calls: payment intent, card confirmation, reservation. */
export async function reserve(
  t: TestContext,
  cookie: string,
  itemId: string,
  startDate: string,
  endDate: string,
  card = VISA,
) {
  const quote = await quoteFor(t, cookie, itemId, startDate, endDate);
  if (quote.statusCode !== 200) return { quote };
  const { paymentIntentId } = quote.json() as { paymentIntentId: string };
  const confirm = await t.post('/api/payments/test/confirm', { paymentIntentId, card }, cookie);
  const create = await t.post(
    '/api/reservations',
    { itemId, startDate, endDate, stripePaymentIntentId: paymentIntentId },
    cookie,
  );
  return { quote, confirm, create, paymentIntentId, reservation: create.json().reservation };
}
