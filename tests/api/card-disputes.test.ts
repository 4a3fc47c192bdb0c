import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { disputes, lenderReceivables } from '../../src/server/db/schema/disputes.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { transaction } from '../../src/server/db/transaction.ts';
import { disputeService } from '../../src/server/features/disputes/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Card chargebacks on the built-in test provider: Stripe's dispute test card opens a dispute right
// after the capture, which the provider tells through the function Stripe's webhook events reach.
// Moderators are told and see it (but for their own bookings), the lender's transfers wait while it is
// open, the evidence is made of what the booking holds, and a lost dispute gets a finding of who bears
// it; what a lender cannot cover becomes a receivable netted from later transfers. On both databases.

const MODERATOR = 'dispute.moderator@stanford.edu';
const LENDING_MODERATOR = 'lending.moderator@stanford.edu';
const t = setupTestApp({ ...WITHOUT_SERVICE_FEE, adminEmails: [MODERATOR, LENDING_MODERATOR] });
const db = () => t.database.db;
const DISPUTE_CARD = { ...VISA, number: '4000 0000 0000 0259' };

type SignedIn = Awaited<ReturnType<typeof createSignedInUser>>;
let moderator: SignedIn;
let lendingModerator: SignedIn;

beforeAll(async () => {
  moderator = await createSignedInUser(db(), { email: MODERATOR, fullName: 'Mona Moderator' });
  lendingModerator = await createSignedInUser(db(), { email: LENDING_MODERATOR, fullName: 'Leo Lender' });
});

const deps = () => ({
  db: db(),
  payments: t.app.payments,
  adminEmails: t.config.adminEmails,
  appUrl: t.config.appUrl,
});
const provider = () => t.app.payments as TestPaymentProvider;

/** A $10 rental + $20 deposit borrow paid with `card`, approved (captured), picked up, with a chat. */
async function capturedBorrow(card = DISPUTE_CARD, lender?: SignedIn) {
  const owner = lender ?? (await createSignedInUser(db()));
  const borrower = await createSignedInUser(db(), { fullName: 'Bea Borrower' });
  const item = await createItem(db(), {
    userId: owner.user.id,
    title: 'Trail bike',
    description: 'A blue trail bike with a helmet.',
    rentalPriceCents: 500,
    rentalPeriod: 'day',
    depositCents: 2000,
  });
  const r = await reserve(t, borrower.cookie, item.id, day(1), day(3), card);
  expect(r.create?.statusCode, r.create?.body).toBe(201);
  const id = r.reservation.id as string;
  const chat = (await t.post(`/api/reservations/${id}/conversation`, {}, borrower.cookie)).json();
  await t.post(
    `/api/conversations/${chat.conversation.id}/messages`,
    { content: 'Can I pick it up at 5?' },
    borrower.cookie,
  );
  await t.post(
    `/api/conversations/${chat.conversation.id}/messages`,
    { content: 'Yes, by the library.' },
    owner.cookie,
  );
  expect((await t.post(`/api/reservations/${id}/approve`, {}, owner.cookie)).statusCode).toBe(200);
  await settlePayments(t);
  return { lender: owner, borrower, item, id, intent: r.paymentIntentId as string };
}

async function disputeOf(reservationId: string) {
  const [row] = await db().select().from(disputes).where(eq(disputes.reservationId, reservationId));
  return row;
}

const noticesOf = async (userId: string, reservationId: string) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).filter(
    (n) => n.relatedReservationId === reservationId,
  );

describe('the dispute test card', () => {
  it('opens a dispute right after the capture: recorded, moderators told, the transfers frozen', async () => {
    const { id, lender } = await capturedBorrow();
    const row = await disputeOf(id);
    expect(row).toMatchObject({
      status: 'needs_response',
      reason: 'fraudulent',
      amountCents: 3000,
      withdrawnCents: 3000,
      reinstatedCents: 0,
      feeCents: 1500,
      lenderId: lender.user.id,
    });
    expect(row!.evidenceDueBy!.getTime()).toBeGreaterThan(Date.now());
    expect(await disputeService.freezesTransfers(db(), id)).toBe(true);
    // The journal says the money left: the booking's books count it as disputed.
    const { rows: journalled } = await db().execute<{ kind: string; cents: number }>(sql`
      select t.kind, sum(l.amount_cents)::int as cents from journal_transactions t
      join journal_lines l on l.transaction_id = t.id
      where t.reservation_id = ${id} and t.kind = 'dispute_withdrawn' and l.account = 'provider_cash'
      group by t.kind`);
    expect(journalled).toEqual([{ kind: 'dispute_withdrawn', cents: -3000 }]);
    const told = await noticesOf(moderator.user.id, id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 'system', title: 'Card dispute' });
    expect(told[0]!.message).toContain('$30.00');
    expect(told[0]!.message).toContain('Trail bike');
  });

  it('leaves a paid booking without the test card alone', async () => {
    const { id } = await capturedBorrow(VISA);
    expect(await disputeOf(id)).toBeUndefined();
    expect(await disputeService.freezesTransfers(db(), id)).toBe(false);
  });

  it('is applied once when told many times at once', async () => {
    const { id, intent } = await capturedBorrow();
    const [dispute] = await provider().disputesOf(intent);
    await Promise.all(Array.from({ length: 8 }, () => disputeService.providerReported(deps(), dispute!.id)));
    const rows = await db().select().from(disputes).where(eq(disputes.reservationId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ withdrawnCents: 3000, feeCents: 1500 });
    expect(await noticesOf(moderator.user.id, id)).toHaveLength(1);
  });

  it('answers an unknown dispute without recording anything', async () => {
    const before = (await db().select().from(disputes)).length;
    expect(await disputeService.providerReported(deps(), 'dp_test_nothing')).toEqual({
      outcome: 'unknown dispute',
      effects: [],
    });
    expect(await db().select().from(disputes)).toHaveLength(before);
  });
});

describe('GET /api/admin/disputes', () => {
  it('is for moderators only, and leaves out the bookings they are party to', async () => {
    const { id } = await capturedBorrow(DISPUTE_CARD, lendingModerator);
    expect((await t.get('/api/admin/disputes')).statusCode).toBe(401);
    const { borrower } = await capturedBorrow();
    expect((await t.get('/api/admin/disputes', borrower.cookie)).statusCode).toBe(403);

    const seen = await t.get('/api/admin/disputes', moderator.cookie);
    expect(seen.statusCode).toBe(200);
    const mine = seen.json().disputes.find((d: { reservationId: string }) => d.reservationId === id);
    expect(mine).toMatchObject({
      reservationId: id,
      amount: '30.00',
      reason: 'fraudulent',
      status: 'needs_response',
      freezesTransfers: true,
    });
    expect(Date.parse(mine.evidenceDueBy)).toBeGreaterThan(Date.now());

    const theirs = (await t.get('/api/admin/disputes', lendingModerator.cookie)).json();
    expect(theirs.disputes.some((d: { reservationId: string }) => d.reservationId === id)).toBe(false);
    expect(theirs.ownCases).toEqual({ withheld: 1, otherModerator: true });
    // Nor is the lending moderator told of it, nor can they act on it.
    const lendersNotices = await noticesOf(lendingModerator.user.id, id);
    expect(lendersNotices.filter((n) => n.title.startsWith('Card dispute'))).toEqual([]);
    const row = (await disputeOf(id))!;
    const refused = await t.get(`/api/admin/disputes/${row.id}/evidence`, lendingModerator.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('OWN_CASE');
  });
});

describe('evidence', () => {
  it('is made of the booking: listing, dates, amounts, pickup, handover notes and the chat', async () => {
    const { id, lender, borrower } = await capturedBorrow();
    const code = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0].pickupCode;
    expect(
      (await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: code }, lender.cookie))
        .statusCode,
    ).toBe(200);
    await t.post(
      `/api/reservations/${id}/handovers`,
      { stage: 'pickup', note: 'No scratches on the frame.' },
      lender.cookie,
    );
    const row = (await disputeOf(id))!;
    const preview = await t.get(`/api/admin/disputes/${row.id}/evidence`, moderator.cookie);
    expect(preview.statusCode, preview.body).toBe(200);
    const { evidence } = preview.json();
    expect(evidence.product_description).toContain('Trail bike');
    expect(evidence.customer_name).toBe('Bea Borrower');
    expect(evidence.service_date).toBe(day(1));
    expect(evidence.access_activity_log).toContain('pickup code');
    expect(evidence.uncategorized_text).toContain('$10.00 rental and $20.00 refundable deposit');
    expect(evidence.uncategorized_text).toContain('No scratches on the frame.');
    expect(evidence.uncategorized_text).toContain('Borrower (cardholder): Can I pick it up at 5?');
    expect(evidence.uncategorized_text).toContain('Lender: Yes, by the library.');
  });

  it('refuses bad input and changes nothing', async () => {
    const { id } = await capturedBorrow();
    const row = (await disputeOf(id))!;
    const long = await t.post(
      `/api/admin/disputes/${row.id}/evidence`,
      { note: 'x'.repeat(2001) },
      moderator.cookie,
    );
    expect(long.statusCode).toBe(400);
    expect((await t.post('/api/admin/disputes/not-an-id/evidence', {}, moderator.cookie)).statusCode).toBe(
      400,
    );
    const missing = await t.post(`/api/admin/disputes/${crypto.randomUUID()}/evidence`, {}, moderator.cookie);
    expect(missing.statusCode).toBe(404);
    expect(await disputeOf(id)).toMatchObject({ status: 'needs_response', evidenceSubmittedAt: null });
  });

  it('goes to the bank once; a won dispute gives the money back and unfreezes the transfers', async () => {
    const { id } = await capturedBorrow();
    const row = (await disputeOf(id))!;
    const sent = await t.post(
      `/api/admin/disputes/${row.id}/evidence`,
      { note: 'The cardholder collected it in person. winning_evidence' },
      moderator.cookie,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().dispute).toMatchObject({ status: 'won', outcome: 'won', reinstated: '30.00' });
    expect(await disputeOf(id)).toMatchObject({
      reinstatedCents: 3000,
      feeCents: 0,
      evidenceSubmittedBy: moderator.user.id,
    });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(false);
    const again = await t.post(`/api/admin/disputes/${row.id}/evidence`, {}, moderator.cookie);
    expect(again.statusCode).toBe(409);
    // A won dispute needs no finding.
    const finding = await t.post(
      `/api/admin/disputes/${row.id}/finding`,
      { finding: 'platform_bears' },
      moderator.cookie,
    );
    expect(finding.statusCode).toBe(409);
  });

  it('two moderators sending at once submit it once', async () => {
    const { id } = await capturedBorrow();
    const row = (await disputeOf(id))!;
    const answers = await Promise.all(
      [1, 2, 3].map(() => t.post(`/api/admin/disputes/${row.id}/evidence`, {}, moderator.cookie)),
    );
    expect(
      answers.every((a) => a.statusCode === 200 || a.statusCode === 409),
      answers.map((a) => a.body).join(),
    ).toBe(true);
    expect((await provider().retrieveDispute(row.providerDisputeId)).submissionCount).toBe(1);
    expect(await disputeOf(id)).toMatchObject({ status: 'under_review' });
  });
});

describe('a lost dispute', () => {
  it('keeps the transfers frozen until a moderator finds who bears it, told once', async () => {
    const { id, lender } = await capturedBorrow();
    const row = (await disputeOf(id))!;
    const lost = await t.post(
      `/api/admin/disputes/${row.id}/test-outcome`,
      { outcome: 'lost' },
      moderator.cookie,
    );
    expect(lost.statusCode, lost.body).toBe(200);
    expect(lost.json().dispute).toMatchObject({ status: 'lost', outcome: 'lost', freezesTransfers: true });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(true);
    const told = await noticesOf(moderator.user.id, id);
    expect(told.map((n) => n.title).sort()).toEqual(['Card dispute', 'Card dispute lost']);

    // Bad input, a stranger, a party: refused, nothing changed.
    expect(
      (await t.post(`/api/admin/disputes/${row.id}/finding`, { finding: 'nobody' }, moderator.cookie))
        .statusCode,
    ).toBe(400);
    expect(
      (await t.post(`/api/admin/disputes/${row.id}/finding`, { finding: 'platform_bears' }, lender.cookie))
        .statusCode,
    ).toBe(403);
    expect(await disputeOf(id)).toMatchObject({ finding: null });

    const found = await t.post(
      `/api/admin/disputes/${row.id}/finding`,
      { finding: 'lender_at_fault', note: 'The bike was never handed over.' },
      moderator.cookie,
    );
    expect(found.statusCode, found.body).toBe(200);
    // The lender's earning of the booking (the $10 rental), at most what was lost.
    expect(found.json().dispute).toMatchObject({
      finding: 'lender_at_fault',
      reversal: '10.00',
      freezesTransfers: false,
    });
    expect(await disputeService.freezesTransfers(db(), id)).toBe(false);
    const lenderTold = await noticesOf(lender.user.id, id);
    expect(lenderTold.some((n) => n.title === 'Card dispute decided' && n.message.includes('$10.00'))).toBe(
      true,
    );
    const twice = await t.post(
      `/api/admin/disputes/${row.id}/finding`,
      { finding: 'platform_bears' },
      moderator.cookie,
    );
    expect(twice.statusCode).toBe(409);
  });

  it('borne by the platform: no reversal', async () => {
    const { id } = await capturedBorrow();
    const row = (await disputeOf(id))!;
    await t.post(`/api/admin/disputes/${row.id}/test-outcome`, { outcome: 'lost' }, moderator.cookie);
    const found = await t.post(
      `/api/admin/disputes/${row.id}/finding`,
      { finding: 'platform_bears' },
      moderator.cookie,
    );
    expect(found.json().dispute).toMatchObject({ finding: 'platform_bears', reversal: null });
    await expect(
      transaction(db(), (tx) => disputeService.reversalShortfall(tx, row.id, 100)),
    ).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('a reversal the lender cannot cover becomes a receivable, netted from later transfers once', async () => {
    const { id, lender } = await capturedBorrow();
    const row = (await disputeOf(id))!;
    await t.post(`/api/admin/disputes/${row.id}/test-outcome`, { outcome: 'lost' }, moderator.cookie);
    expect(await disputeService.lenderAtFault(deps(), moderator.user.id, row.id)).toBe(1000);

    await transaction(db(), (tx) => disputeService.reversalShortfall(tx, row.id, 600));
    expect(await disputeService.receivableOf(db(), lender.user.id)).toBe(600);
    // Never more than the reversal decided.
    await expect(
      transaction(db(), (tx) => disputeService.reversalShortfall(tx, row.id, 401)),
    ).rejects.toMatchObject({
      statusCode: 409,
    });

    // Five transfers of $2 at once: the $6 owed is taken once, from the first three.
    const netted = await Promise.all(
      Array.from({ length: 5 }, () =>
        transaction(db(), (tx) => disputeService.netAgainstReceivable(tx, lender.user.id, 200)),
      ),
    );
    expect(netted.reduce((sum, n) => sum + n.nettedCents, 0)).toBe(600);
    expect(netted.reduce((sum, n) => sum + n.payableCents, 0)).toBe(400);
    expect(await disputeService.receivableOf(db(), lender.user.id)).toBe(0);
    expect(
      await transaction(db(), (tx) => disputeService.netAgainstReceivable(tx, lender.user.id, 300)),
    ).toEqual({
      nettedCents: 0,
      payableCents: 300,
    });
    // The entries only grow.
    await expect(
      db()
        .update(lenderReceivables)
        .set({ amountCents: 1 })
        .where(eq(lenderReceivables.lenderId, lender.user.id)),
    ).rejects.toThrow();
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from lender_receivables where lender_id = ${lender.user.id}`,
    );
    expect(rows[0]!.n).toBe(4);
  });
});

describe('the moderators’ notice', () => {
  it('is read again in the reader’s language', async () => {
    const { id } = await capturedBorrow();
    const language = (locale: 'en' | 'es') => t.put('/api/account/language', { locale }, moderator.cookie);
    expect((await language('es')).statusCode).toBe(200);
    try {
      const listed = (await t.get('/api/notifications', moderator.cookie)).json().notifications as {
        title: string;
        message: string;
        relatedReservationId: string | null;
      }[];
      const notice = listed.find((n) => n.relatedReservationId === id);
      expect(notice?.title).toBe('Disputa de tarjeta');
      expect(notice?.message).toContain('El banco del prestatario disputó el pago con tarjeta de $30.00');
    } finally {
      await language('en');
    }
  });
});
