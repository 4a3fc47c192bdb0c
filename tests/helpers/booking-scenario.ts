import { asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { billingHistory, paymentSteps } from '../../src/server/db/schema/payments.ts';
import { testPaymentIntents } from '../../src/server/db/schema/test-payments.ts';
import { quote } from '../../src/shared/booking/pricing.ts';
import { settlePayments } from './money.ts';
import { day, scenario, VISA } from './reservation-fixtures.ts';
import type { TestContext } from './test-app.ts';

// A booking in any state of its life, built through the API as the two students would click it (the
// Reserve dialog, the lender's approval, the pickup code, "Item Returned", a claim, a dispute), and the
// readers the money tests look at afterwards: billing rows, payment steps, the provider's intent and
// notifications. One place, so a change to the lifecycle is followed by every test the same way.

export type BookingState = 'requested' | 'approved' | 'active' | 'returned' | 'claimed' | 'disputed';
export type Policy = 'flexible' | 'moderate' | 'strict';
type ItemOverrides = NonNullable<Parameters<typeof scenario>[1]>;

export interface BookingOptions {
  /** The item's cancellation policy (the item's default when left out). */
  policy?: Policy;
  /** Anything else about the item: price, period, deposit. $5/day and a $20 deposit by default. */
  item?: ItemOverrides;
  /** The booking's days, counted from the campus's today: day 1 to day 3 by default. */
  days?: { from: number; to: number };
  card?: typeof VISA;
  /** Run the payment steps the approval wrote (the capture), as the worker would. True by default. */
  settle?: boolean;
  /** Who says the item changed hands: the lender typing the borrower's code (default), or the borrower. */
  pickup?: 'lender-with-code' | 'borrower';
  /** The lender's claim on the deposit, for 'claimed' and 'disputed'. */
  claim?: { description: string; amount: string };
  /** The borrower's answer to the claim, for 'disputed'. */
  dispute?: { note: string };
  /** False: a lender who never set up payouts (approving their paid request is refused). */
  lenderPayouts?: boolean;
  /** More days asked for once the booking is approved: a new last day and the extra rental. */
  extension?: { to: number; rentalAmount: string; card?: typeof VISA };
}

const ORDER: BookingState[] = ['requested', 'approved', 'active', 'returned', 'claimed', 'disputed'];
const CLAIM = { description: 'The chuck is cracked and wobbles.', amount: '12.00' };
const DISPUTE = { note: 'The crack was there at pickup: see my pickup photos.' };

/**
 * A lender's item, a borrower, a stranger, and the borrower's paid booking of it moved to `state`: every
 * step is asserted to succeed, so a broken set-up fails where it broke.
 */
export async function bookingAt(t: TestContext, state: BookingState, options: BookingOptions = {}) {
  const reached = (s: BookingState) => ORDER.indexOf(state) >= ORDER.indexOf(s);
  const item = { ...options.item, ...(options.policy ? { cancellationPolicy: options.policy } : {}) };
  const s = await scenario(t, item, { lenderPayouts: options.lenderPayouts ?? true });
  const { from, to } = options.days ?? { from: 1, to: 3 };
  const booked = await reserveAtQuote(t, s.borrower.cookie, s.item, day(from), day(to), options.card ?? VISA);
  expect(booked.create.statusCode, booked.create.body).toBe(201);
  const id = booked.id;
  const b = { ...s, id, intent: booked.intent as string, reservation: booked.reservation };
  let extension: Awaited<ReturnType<typeof askForMoreDays>> | undefined;
  if (!reached('approved')) return { ...b, extension };

  const approve = await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
  expect(approve.statusCode, approve.body).toBe(200);
  if (options.settle ?? true) await settlePayments(t);
  if (options.extension) {
    const { to: last, rentalAmount, card } = options.extension;
    extension = await askForMoreDays(t, s.borrower.cookie, id, day(last), rentalAmount, card);
    expect(extension.request?.statusCode, extension.request?.body).toBe(201);
  }
  if (!reached('active')) return { ...b, extension };

  await pickUp(t, b, options.pickup ?? 'lender-with-code');
  if (!reached('returned')) return { ...b, extension };

  const back = await t.put(`/api/reservations/${id}`, { status: 'returned' }, s.borrower.cookie);
  expect(back.statusCode, back.body).toBe(200);
  if (!reached('claimed')) return { ...b, extension };

  const claim = await t.post(`/api/reservations/${id}/claim`, options.claim ?? CLAIM, s.lender.cookie);
  expect(claim.statusCode, claim.body).toBe(200);
  if (!reached('disputed')) return { ...b, extension };

  const dispute = await t.post(
    `/api/reservations/${id}/claim/dispute`,
    options.dispute ?? DISPUTE,
    s.borrower.cookie,
  );
  expect(dispute.statusCode, dispute.body).toBe(200);
  return { ...b, extension };
}

export type Booking = Awaited<ReturnType<typeof bookingAt>>;

type PricedItem = {
  id: string;
  rentalPriceCents: number | null;
  rentalPeriod: string | null;
  depositCents: number | null;
};

/**
 * The Reserve dialog's calls for any item (by the day, week or month, or free): the server's own quote,
 * the card, the request. A free item is requested without a payment.
 */
export async function reserveAtQuote(
  t: TestContext,
  cookie: string,
  item: PricedItem,
  startDate: string,
  endDate: string,
  card = VISA,
) {
  const price = quote(
    {
      rentalPriceCents: item.rentalPriceCents,
      rentalPeriod: item.rentalPeriod as 'day' | 'week' | 'month' | null,
      depositCents: item.depositCents,
    },
    startDate,
    endDate,
    // The rates this test's app charges by (decision 055).
    t.config.fees,
  );
  const money = (cents: number) => (cents / 100).toFixed(2);
  let paymentIntentId: string | null = null;
  if (price.totalCents > 0) {
    const intent = await t.post(
      '/api/create-payment-intent',
      {
        itemId: item.id,
        startDate,
        endDate,
        depositAmount: money(price.depositCents),
        rentalAmount: money(price.rentalCents),
      },
      cookie,
    );
    expect(intent.statusCode, intent.body).toBe(200);
    paymentIntentId = intent.json().paymentIntentId;
    await t.post('/api/payments/test/confirm', { paymentIntentId, card }, cookie);
  }
  const create = await t.post(
    '/api/reservations',
    { itemId: item.id, startDate, endDate, stripePaymentIntentId: paymentIntentId },
    cookie,
  );
  const reservation = create.json().reservation;
  return { create, id: reservation?.id as string, intent: paymentIntentId, reservation };
}

/** The handover: the lender types the code the borrower shows, or the borrower says "Picked Up". */
export async function pickUp(
  t: TestContext,
  b: { id: string; lender: { cookie: string }; borrower: { cookie: string } },
  by: 'lender-with-code' | 'borrower',
) {
  let start: Awaited<ReturnType<TestContext['put']>>;
  if (by === 'borrower') {
    start = await t.put(`/api/reservations/${b.id}`, { status: 'active' }, b.borrower.cookie);
  } else {
    const mine = (await t.get('/api/reservations', b.borrower.cookie)).json().reservations as {
      id: string;
      pickupCode: string;
    }[];
    const pickupCode = mine.find((r) => r.id === b.id)?.pickupCode;
    start = await t.put(`/api/reservations/${b.id}`, { status: 'active', pickupCode }, b.lender.cookie);
  }
  expect(start.statusCode, start.body).toBe(200);
}

/** The borrower's "more days" dialog: an authorisation of the extra rental, the card, then the request. */
export async function askForMoreDays(
  t: TestContext,
  cookie: string,
  id: string,
  endDate: string,
  rentalAmount: string,
  card = VISA,
) {
  const quote = await t.post(
    `/api/reservations/${id}/extension-payment-intent`,
    { endDate, rentalAmount },
    cookie,
  );
  if (quote.statusCode !== 200) return { quote };
  const { paymentIntentId } = quote.json() as { paymentIntentId: string };
  const confirm = await t.post('/api/payments/test/confirm', { paymentIntentId, card }, cookie);
  const request = await t.post(`/api/reservations/${id}/extensions`, { endDate, paymentIntentId }, cookie);
  return { quote, confirm, request, paymentIntentId, extension: request.json().extension };
}

// Readers. Each answers in the words the money tests compare, sorted so the order rows were written in
// does not matter.

type BillingWhere = { reservationId: string } | { intentId: string } | { userId: string };

/** The billing rows of a reservation, a payment intent or a person, oldest first. */
export async function billingRows(t: TestContext, where: BillingWhere) {
  const column =
    'reservationId' in where
      ? eq(billingHistory.reservationId, where.reservationId)
      : 'intentId' in where
        ? eq(billingHistory.stripePaymentIntentId, where.intentId)
        : eq(billingHistory.userId, where.userId);
  return t.database.db.select().from(billingHistory).where(column).orderBy(asc(billingHistory.createdAt));
}

/** Billing rows as 'kind:amount:status' (or 'kind:status:amount'), sorted. */
export async function billingOf(
  t: TestContext,
  where: BillingWhere,
  shape: 'kind:amount:status' | 'kind:status:amount' = 'kind:amount:status',
) {
  const rows = await billingRows(t, where);
  return rows
    .map((b) =>
      shape === 'kind:amount:status'
        ? `${b.kind}:${b.amountCents}:${b.status}`
        : `${b.kind}:${b.status}:${b.amountCents}`,
    )
    .sort();
}

/** A reservation's billing rows as 'kind:amount:status', sorted. */
export const rowsOf = (t: TestContext, reservationId: string) => billingOf(t, { reservationId });

/** What the test provider holds for a payment intent: amounts authorised, received and refunded. */
export async function providerIntent(t: TestContext, intentId: string) {
  const [row] = await t.database.db
    .select()
    .from(testPaymentIntents)
    .where(eq(testPaymentIntents.id, intentId));
  return row!;
}

/** The payment steps (provider calls) written for an intent, in order: 'kind:purpose:amount:status'. */
export async function providerSteps(t: TestContext, intentId: string) {
  const rows = await t.database.db
    .select()
    .from(paymentSteps)
    .where(sql`${paymentSteps.paymentIntentId} = ${intentId}`)
    .orderBy(asc(paymentSteps.seq));
  return rows.map((r) => `${r.kind}:${r.purpose}:${r.amountCents}:${r.status}`);
}

export interface Notice {
  type: string;
  title: string;
  message: string;
  relatedReservationId: string | null;
}

/** A person's notifications, newest first, about one reservation and of one type when told. */
export async function notices(t: TestContext, cookie: string, about: { id?: string; type?: string } = {}) {
  const response = await t.get('/api/notifications', cookie);
  expect(response.statusCode).toBe(200);
  const list = response.json().notifications as Notice[];
  return list.filter(
    (n) =>
      (about.id === undefined || n.relatedReservationId === about.id) &&
      (about.type === undefined || n.type === about.type),
  );
}
