import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/server/clock.ts';
import { askOffers, asks } from '../../src/server/db/schema/asks.ts';
import { messages } from '../../src/server/db/schema/chat.ts';
import { moderationActions, reports } from '../../src/server/db/schema/community.ts';
import { notificationDeliveries as deliveries } from '../../src/server/db/schema/deliveries.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { notificationPreferences } from '../../src/server/db/schema/users.ts';
import { sendDigests } from '../../src/server/features/asks/digest.ts';
import { askService } from '../../src/server/features/asks/service.ts';
import { campusAt } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser, suspend } from '../factories.ts';
import { drillAsk } from '../helpers/ask-fixtures.ts';
import { notices, pickUp } from '../helpers/booking-scenario.ts';
import { readOutbox, recipients } from '../helpers/outbox.ts';
import { day, TZ } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Ask your campus: asking, the board, offers, closing, the approval that answers an ask, who hears of
// it and the daily digest. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.

const MODERATOR = 'moderator.asks@stanford.edu';
const REPORTS_MODERATOR = 'moderator.ask-reports@stanford.edu';
const QUEUE_MODERATOR = 'moderator.ask-queue@stanford.edu';
const UNHIDE_MODERATORS = [1, 2, 3, 4, 5, 6].map((n) => `moderator.ask-unhide-${n}@stanford.edu`);
const t = setupTestApp({
  adminEmails: [MODERATOR, REPORTS_MODERATOR, QUEUE_MODERATOR, ...UNHIDE_MODERATORS],
});
const db = () => t.database.db;

async function ask(cookie: string, overrides: Record<string, unknown> = {}) {
  const response = await t.post('/api/asks', drillAsk(overrides), cookie);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().ask as { id: string; status: string };
}

const countAsks = async (userId: string) =>
  (await db().select().from(asks).where(eq(asks.userId, userId))).length;

async function board(cookie: string) {
  const response = await t.get('/api/asks', cookie);
  expect(response.statusCode).toBe(200);
  return response.json().asks as {
    id: string;
    title: string;
    author: Record<string, string>;
    offers: { itemId: string; conversationId: string | null; mine: boolean }[];
    offerCount: number;
    status: string;
    closeReason: string | null;
  }[];
}

const offer = (cookie: string, askId: string, itemId: string) =>
  t.post(`/api/asks/${askId}/offers`, { itemId }, cookie);

describe('asking the campus', () => {
  it('puts the ask on its campus board, newest first, with the first name and campus only', async () => {
    const asker = await createSignedInUser(db(), { fullName: 'Maya Chen' });
    const neighbour = await createSignedInUser(db());
    const elsewhere = await createSignedInUser(db(), { campus: 'berkeley.edu' });
    const first = await ask(asker.cookie, { title: 'Camping tent', category: 'other' });
    const second = await ask(asker.cookie);
    expect(second).toMatchObject({ status: 'open' });

    const seen = await board(neighbour.cookie);
    const ids = seen.map((a) => a.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const shown = seen.find((a) => a.id === second.id)!;
    expect(shown).toMatchObject({
      title: 'Cordless drill',
      category: 'tools',
      startDate: day(1),
      endDate: day(2),
      maxPrice: '10.00',
      mine: false,
      author: { firstName: 'Maya' },
    });
    expect(JSON.stringify(shown)).not.toContain(asker.user.email);
    expect(JSON.stringify(shown)).not.toContain('Chen');
    expect(Object.keys(shown.author).sort()).toEqual(['campusName', 'firstName']);

    expect((await board(elsewhere.cookie)).map((a) => a.id)).not.toContain(second.id);
    const mine = await t.get('/api/asks?mine=true', asker.cookie);
    expect(mine.json().asks.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
  });

  it('takes "free only" as a most of nothing', async () => {
    const asker = await createSignedInUser(db());
    const created = await t.post('/api/asks', drillAsk({ maxPrice: 'free' }), asker.cookie);
    expect(created.statusCode).toBe(201);
    expect(created.json().ask.maxPrice).toBe('0.00');
  });

  it.each([
    ['no title', { title: '' }, 'title'],
    ['a title too long', { title: 'x'.repeat(121) }, 'title'],
    ['a note too long', { note: 'x'.repeat(1001) }, 'note'],
    ['an unknown category', { category: 'weapons' }, 'category'],
    ['no dates', { startDate: undefined }, 'startDate'],
    ['a day that does not exist', { startDate: '2026-02-30' }, 'startDate'],
    ['a start in the past', { startDate: day(-1) }, 'startDate'],
    ['an end before the start', { startDate: day(3), endDate: day(2) }, 'endDate'],
    ['more than 90 days', { startDate: day(1), endDate: day(95) }, 'endDate'],
    ['a start too far ahead', { startDate: day(200), endDate: day(201) }, 'startDate'],
    ['a price that is no amount', { maxPrice: 'lots' }, 'maxPrice'],
    ['a negative price', { maxPrice: '-5' }, 'maxPrice'],
    ['a prohibited item', { title: 'Need a rifle for the weekend' }, 'title'],
    ['a prohibited item in the note', { title: 'Party supplies', note: 'also some weed' }, 'title'],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_what, change, path) => {
    const asker = await createSignedInUser(db());
    const response = await t.post('/api/asks', drillAsk(change), asker.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues.map((i: { path: string }) => i.path)).toContain(path);
    expect(response.json().message).toBeTruthy();
    expect(await countAsks(asker.user.id)).toBe(0);
  });

  it('is for signed-in, verified students only', async () => {
    expect((await t.post('/api/asks', drillAsk())).statusCode).toBe(401);
    expect((await t.get('/api/asks')).statusCode).toBe(401);
    const unverified = await createSignedInUser(db(), { isVerified: false });
    const refused = await t.post('/api/asks', drillAsk(), unverified.cookie);
    expect(refused.statusCode).toBe(403);
    expect(await countAsks(unverified.user.id)).toBe(0);
  });

  it('allows five open asks, also when many arrive at once; a closed one makes room', async () => {
    const asker = await createSignedInUser(db());
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post('/api/asks', drillAsk({ title: `Thing ${i}` }), asker.cookie),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = answers.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json()).toMatchObject({ code: 'TOO_MANY_ASKS' });
    expect(refused[0]!.json().message).toMatch(/5 open asks/);
    expect(await countAsks(asker.user.id)).toBe(5);

    const one = answers.find((r) => r.statusCode === 201)!.json().ask.id;
    expect((await t.del(`/api/asks/${one}`, asker.cookie)).statusCode).toBe(200);
    expect((await t.post('/api/asks', drillAsk(), asker.cookie)).statusCode).toBe(201);
  });

  it('leaves expired asks off the board and out of the limit', async () => {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const [old] = await db()
      .insert(asks)
      .values({
        userId: asker.user.id,
        campus: 'stanford.edu',
        title: 'Old ask',
        category: 'tools',
        startDate: day(-5),
        endDate: day(-1),
        maxPriceCents: 0,
      })
      .returning();
    expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(old!.id);
    const mine = (await t.get('/api/asks?mine=1', asker.cookie)).json().asks;
    expect(mine.find((a: { id: string }) => a.id === old!.id)).toMatchObject({ expired: true });
  });
});

describe('offering a listing', () => {
  async function askAndLender(itemOverrides: Record<string, unknown> = {}) {
    const asker = await createSignedInUser(db(), { fullName: 'Maya Chen' });
    const lender = await createSignedInUser(db(), { fullName: 'Jordan Lee' });
    const item = await createItem(db(), { userId: lender.user.id, title: 'Bosch drill', ...itemOverrides });
    const asked = await ask(asker.cookie);
    return { asker, lender, item, asked };
  }

  it('says the offer in the chat about the item and tells the asker, who sees it on their ask', async () => {
    const { asker, lender, item, asked } = await askAndLender();
    const response = await offer(lender.cookie, asked.id, item.id);
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json().offer;
    expect(made).toMatchObject({
      itemId: item.id,
      itemTitle: 'Bosch drill',
      lenderFirstName: 'Jordan',
      mine: true,
    });
    expect(made.conversationId).toBeTruthy();

    const [said] = await db().select().from(messages).where(eq(messages.conversationId, made.conversationId));
    expect(said).toMatchObject({ senderId: lender.user.id });
    expect(said!.content).toContain('Bosch drill');

    const told = await notices(t, asker.cookie, { type: 'ask_offer' });
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain('Jordan');
    expect(told[0]!.message).toContain('Bosch drill');

    const mine = (await board(asker.cookie)).find((a) => a.id === asked.id)!;
    expect(mine.offers).toEqual([
      expect.objectContaining({ itemId: item.id, conversationId: made.conversationId }),
    ]);
    // Another neighbour sees that there is an offer, not whose.
    const other = await createSignedInUser(db());
    const seen = (await board(other.cookie)).find((a) => a.id === asked.id)!;
    expect(seen.offerCount).toBe(1);
    expect(seen.offers).toEqual([]);
  });

  it('refuses a second offer of the same item, also when many arrive at once', async () => {
    const { lender, item, asked } = await askAndLender();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => offer(lender.cookie, asked.id, item.id)),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(refused.every((r) => r.statusCode === 409 && r.json().code === 'ALREADY_OFFERED')).toBe(true);
    expect(await db().select().from(askOffers).where(eq(askOffers.askId, asked.id))).toHaveLength(1);
    expect(await db().select().from(messages).where(eq(messages.senderId, lender.user.id))).toHaveLength(1);
  });

  it('takes many neighbours’ offers at once, each said and told', async () => {
    const asker = await createSignedInUser(db());
    const asked = await ask(asker.cookie);
    const lenders = await Promise.all(Array.from({ length: 5 }, () => createSignedInUser(db())));
    const listed = await Promise.all(lenders.map((l) => createItem(db(), { userId: l.user.id })));
    const answers = await Promise.all(lenders.map((l, i) => offer(l.cookie, asked.id, listed[i]!.id)));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(await notices(t, asker.cookie, { type: 'ask_offer' })).toHaveLength(5);
    expect((await board(asker.cookie)).find((a) => a.id === asked.id)!.offers).toHaveLength(5);
  });

  it('refuses offers that are not the offerer’s to make, changing nothing', async () => {
    const { asker, lender, item, asked } = await askAndLender();
    const stranger = await createSignedInUser(db());
    const elsewhere = await createSignedInUser(db(), { campus: 'berkeley.edu' });
    const theirItem = await createItem(db(), { userId: elsewhere.user.id, campus: 'berkeley.edu' });
    const askerItem = await createItem(db(), { userId: asker.user.id });
    const unavailable = await createItem(db(), { userId: lender.user.id, isAvailable: false });
    const deleted = await createItem(db(), { userId: lender.user.id, deletedAt: new Date() });

    expect((await offer(stranger.cookie, asked.id, item.id)).statusCode).toBe(403);
    expect((await offer(asker.cookie, asked.id, askerItem.id)).statusCode).toBe(403);
    expect((await offer(elsewhere.cookie, asked.id, theirItem.id)).statusCode).toBe(404);
    expect((await offer(lender.cookie, asked.id, unavailable.id)).statusCode).toBe(409);
    expect((await offer(lender.cookie, asked.id, deleted.id)).statusCode).toBe(404);
    expect((await offer(lender.cookie, '00000000-0000-4000-8000-000000000000', item.id)).statusCode).toBe(
      404,
    );
    expect((await t.post(`/api/asks/${asked.id}/offers`, { itemId: 'nope' }, lender.cookie)).statusCode).toBe(
      400,
    );
    expect((await t.post(`/api/asks/not-an-id/offers`, { itemId: item.id }, lender.cookie)).statusCode).toBe(
      400,
    );
    expect((await t.post(`/api/asks/${asked.id}/offers`, { itemId: item.id })).statusCode).toBe(401);
    expect(await db().select().from(askOffers).where(eq(askOffers.askId, asked.id))).toHaveLength(0);
    expect(await notices(t, asker.cookie, { type: 'ask_offer' })).toHaveLength(0);
  });

  it('answers 410 to an offer for an expired ask and 409 for a closed one', async () => {
    const { asker, lender, item, asked } = await askAndLender();
    const [old] = await db()
      .insert(asks)
      .values({
        userId: asker.user.id,
        campus: 'stanford.edu',
        title: 'Old ask',
        category: 'tools',
        startDate: day(-3),
        endDate: day(-1),
        maxPriceCents: 0,
      })
      .returning();
    const expired = await offer(lender.cookie, old!.id, item.id);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe('ASK_EXPIRED');
    expect((await t.del(`/api/asks/${asked.id}`, asker.cookie)).statusCode).toBe(200);
    const closed = await offer(lender.cookie, asked.id, item.id);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('ASK_CLOSED');
    expect(await db().select().from(askOffers).where(eq(askOffers.itemId, item.id))).toHaveLength(0);
  });

  it('an offer racing the ask’s close either lands before the close or is refused', async () => {
    for (let round = 0; round < 4; round++) {
      const { asker, lender, item, asked } = await askAndLender();
      const [offered, closed] = await Promise.all([
        offer(lender.cookie, asked.id, item.id),
        t.del(`/api/asks/${asked.id}`, asker.cookie),
      ]);
      expect(closed.statusCode).toBe(200);
      expect([201, 409]).toContain(offered.statusCode);
      const [row] = await db().select().from(asks).where(eq(asks.id, asked.id));
      const made = await db().select().from(askOffers).where(eq(askOffers.askId, asked.id));
      expect(row!.status).toBe('closed');
      expect(made).toHaveLength(offered.statusCode === 201 ? 1 : 0);
      if (made[0]) expect(made[0].createdAt.getTime()).toBeLessThanOrEqual(row!.closedAt!.getTime());
    }
  });
});

describe('closing and hiding', () => {
  it('lets only the author close an ask; a moderator hides one from the board', async () => {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const elsewhere = await createSignedInUser(db(), { campus: 'berkeley.edu' });
    const moderator = await createSignedInUser(db(), { email: MODERATOR });
    const asked = await ask(asker.cookie);
    expect((await t.del(`/api/asks/${asked.id}`)).statusCode).toBe(401);
    expect((await t.del(`/api/asks/${asked.id}`, neighbour.cookie)).statusCode).toBe(403);
    expect((await t.del(`/api/asks/${asked.id}`, elsewhere.cookie)).statusCode).toBe(404);
    expect((await t.del('/api/asks/nope', asker.cookie)).statusCode).toBe(400);
    expect((await db().select().from(asks).where(eq(asks.id, asked.id)))[0]!.status).toBe('open');

    const hidden = await ask(asker.cookie, { title: 'Projector' });
    expect((await t.del(`/api/asks/${hidden.id}`, moderator.cookie)).statusCode).toBe(200);
    expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(hidden.id);

    const closed = await t.del(`/api/asks/${asked.id}`, asker.cookie);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().ask).toMatchObject({ status: 'closed', closeReason: 'author' });
    expect((await t.del(`/api/asks/${asked.id}`, asker.cookie)).statusCode).toBe(409);
    expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(asked.id);
  });

  it('leaves a suspended author’s asks off the board', async () => {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const asked = await ask(asker.cookie);
    await suspend(db(), asker.user.id);
    expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(asked.id);
  });
});

describe('a reservation made from an offer', () => {
  async function offeredTwice() {
    const asker = await createSignedInUser(db());
    const lenders = [await createSignedInUser(db()), await createSignedInUser(db())];
    const listed = [
      await createItem(db(), { userId: lenders[0]!.user.id }),
      await createItem(db(), { userId: lenders[1]!.user.id }),
    ];
    const asked = await ask(asker.cookie, { maxPrice: 'free' });
    for (const [i, lender] of lenders.entries()) {
      expect((await offer(lender.cookie, asked.id, listed[i]!.id)).statusCode).toBe(201);
    }
    const requests = [];
    for (const item of listed) {
      const created = await t.post(
        '/api/reservations',
        { itemId: item.id, startDate: day(1), endDate: day(2) },
        asker.cookie,
      );
      expect(created.statusCode, created.body).toBe(201);
      requests.push(created.json().reservation.id as string);
    }
    return { asker, lenders, asked, requests };
  }

  it('closes the ask when its lender approves, linked to the reservation', async () => {
    const { asker, lenders, asked, requests } = await offeredTwice();
    expect((await board(asker.cookie)).find((a) => a.id === asked.id)!.status).toBe('open');
    const approved = await t.post(`/api/reservations/${requests[0]}/approve`, {}, lenders[0]!.cookie);
    expect(approved.statusCode, approved.body).toBe(200);
    const [row] = await db().select().from(asks).where(eq(asks.id, asked.id));
    expect(row).toMatchObject({ status: 'closed', closeReason: 'reserved', reservationId: requests[0] });
    const mine = (await t.get('/api/asks?mine=true', asker.cookie)).json().asks;
    expect(mine.find((a: { id: string }) => a.id === asked.id)).toMatchObject({
      status: 'closed',
      closeReason: 'reserved',
    });
    // The other lender's approval still stands; the ask stays linked to the first.
    expect(
      (await t.post(`/api/reservations/${requests[1]}/approve`, {}, lenders[1]!.cookie)).statusCode,
    ).toBe(200);
    const [after] = await db().select().from(asks).where(eq(asks.id, asked.id));
    expect(after!.reservationId).toBe(requests[0]);
  });

  it('closes it once when two offers’ reservations are approved at the same time', async () => {
    const { lenders, asked, requests } = await offeredTwice();
    const answers = await Promise.all(
      requests.map((id, i) => t.post(`/api/reservations/${id}/approve`, {}, lenders[i]!.cookie)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const [row] = await db().select().from(asks).where(eq(asks.id, asked.id));
    expect(row!.status).toBe('closed');
    expect(requests).toContain(row!.reservationId);
  });

  it('leaves an ask open when the approved item was never offered for it', async () => {
    const asker = await createSignedInUser(db());
    const lender = await createSignedInUser(db());
    const item = await createItem(db(), { userId: lender.user.id });
    const asked = await ask(asker.cookie);
    const created = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(1), endDate: day(2) },
      asker.cookie,
    );
    await t.post(`/api/reservations/${created.json().reservation.id}/approve`, {}, lender.cookie);
    expect((await db().select().from(asks).where(eq(asks.id, asked.id)))[0]!.status).toBe('open');
  });
});

describe('who hears of an ask', () => {
  const deps = () => ({ db: db(), clock: fixedClock(new Date()), timeZone: TZ });

  it('tells the owners of matching listings once, by the bell and push, never by a single e-mail', async () => {
    const asker = await createSignedInUser(db(), { fullName: 'Maya Chen' });
    const matching = await createSignedInUser(db());
    const otherWords = await createSignedInUser(db());
    const otherCampus = await createSignedInUser(db(), { campus: 'berkeley.edu' });
    // Words no other test lists, so only these listings can match.
    const kind = { category: 'electronics' } as const;
    await createItem(db(), {
      userId: matching.user.id,
      ...kind,
      title: 'Tektronix oscilloscope',
      description: 'Two channels.',
    });
    await createItem(db(), {
      userId: otherWords.user.id,
      ...kind,
      title: 'Soldering station',
      description: 'Hot.',
    });
    await createItem(db(), {
      userId: otherCampus.user.id,
      ...kind,
      campus: 'berkeley.edu',
      title: 'Oscilloscope',
    });
    await t.put('/api/account/notification-preferences', { kind: 'asks', email: true }, matching.cookie);
    const asked = await ask(asker.cookie, { title: 'Oscilloscopes for a lab', category: 'electronics' });

    expect(await askService.tellMatches(deps(), asked.id)).toBe(1);
    expect(await askService.tellMatches(deps(), asked.id)).toBe(0);
    const told = await notices(t, matching.cookie, { type: 'ask_match' });
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain('Maya');
    expect(await notices(t, otherWords.cookie, { type: 'ask_match' })).toHaveLength(0);
    expect(await notices(t, otherCampus.cookie, { type: 'ask_match' })).toHaveLength(0);
    const [notice] = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, matching.user.id), eq(notifications.type, 'ask_match')));
    const channels = (
      await db().select().from(deliveries).where(eq(deliveries.notificationId, notice!.id))
    ).map((d) => d.channel);
    expect(channels).not.toContain('email');
  });

  it('sends the day’s digest once a day to those who turned it on, with a one-click unsubscribe', async () => {
    const asker = await createSignedInUser(db(), { fullName: 'Maya Chen' });
    const reader = await createSignedInUser(db());
    const notOptedIn = await createSignedInUser(db());
    const elsewhere = await createSignedInUser(db(), { campus: 'berkeley.edu' });
    for (const person of [reader, elsewhere]) {
      const set = await t.put(
        '/api/account/notification-preferences',
        { kind: 'asks', email: true },
        person.cookie,
      );
      expect(set.statusCode).toBe(200);
    }
    await ask(asker.cookie, { title: 'Rice cooker', category: 'kitchen' });
    const evening = new Date(Math.max(Date.now() + 1000, campusAt(day(0), 19, TZ).getTime()));
    const digestDeps = {
      db: db(),
      mailer: t.app.mailer,
      clock: fixedClock(evening),
      timeZone: TZ,
      appUrl: 'http://localhost',
    };
    await sendDigests(digestDeps);
    await sendDigests(digestDeps);
    const mails = (await readOutbox(t.outboxDir)).filter((m) => recipients(m).includes(reader.user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Rice cooker');
    expect(mails[0]!.text).toContain('Maya');
    const all = await readOutbox(t.outboxDir);
    expect(all.some((m) => recipients(m).includes(notOptedIn.user.email))).toBe(false);
    expect(all.some((m) => recipients(m).includes(elsewhere.user.email))).toBe(false);
    const header = mails[0]!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line;
    const token = decodeURIComponent(/token=([^>\s]+)/.exec(header)![1]!);
    const off = await t.request({
      method: 'POST',
      url: `/api/unsubscribe?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(off.statusCode).toBe(200);
    const [pref] = await db()
      .select()
      .from(notificationPreferences)
      .where(
        and(eq(notificationPreferences.userId, reader.user.id), eq(notificationPreferences.kind, 'asks')),
      );
    expect(pref!.email).toBe(false);
  });
});

describe('the impact dashboard', () => {
  const counts = async () => {
    const response = await t.get('/api/impact/stanford.edu/dashboard');
    expect(response.statusCode).toBe(200);
    return response.json().asks as { answered: number; borrowed: number };
  };

  it('counts an ask answered when offered for, and a borrow from it once approved and returned', async () => {
    const asker = await createSignedInUser(db());
    const lender = await createSignedInUser(db());
    const item = await createItem(db(), { userId: lender.user.id });
    const before = await counts();
    const asked = await ask(asker.cookie, { maxPrice: 'free', startDate: day(0), endDate: day(1) });
    expect(await counts()).toEqual(before);

    expect((await offer(lender.cookie, asked.id, item.id)).statusCode).toBe(201);
    expect(await counts()).toEqual({ answered: before.answered + 1, borrowed: before.borrowed });

    const created = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(0), endDate: day(1) },
      asker.cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().reservation.id as string;
    expect((await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie)).statusCode).toBe(200);
    const borrowed = { answered: before.answered + 1, borrowed: before.borrowed + 1 };
    expect(await counts()).toEqual(borrowed);

    await pickUp(t, { id, lender, borrower: asker }, 'borrower');
    const returned = await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    expect(returned.statusCode, returned.body).toBe(200);
    // Returned, it is still the one borrow from an ask: counted once.
    expect(await counts()).toEqual(borrowed);
  });
});

describe('reporting an ask', () => {
  const report = (cookie: string | undefined, body: Record<string, unknown>) =>
    t.post('/api/reports', body, cookie);
  const about = (askId: string) => ({
    reportedAskId: askId,
    reason: 'inappropriate',
    description: 'This ask is not for something one may lend.',
  });
  const reportsOf = async (askId: string) =>
    (await db().select().from(reports).where(eq(reports.reportedAskId, askId))).length;

  it('files one open report per person and ask, naming its author, also when sent many times at once', async () => {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const asked = await ask(asker.cookie);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => report(neighbour.cookie, about(asked.id))),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const filed = answers.find((r) => r.statusCode === 201)!.json().report;
    expect(filed).toMatchObject({
      reportedAskId: asked.id,
      reportedUserId: asker.user.id,
      status: 'pending',
    });
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe('ALREADY_REPORTED');
    expect(await reportsOf(asked.id)).toBe(1);
    // A report of the person is another report, not this one.
    const person = await report(neighbour.cookie, {
      reportedUserId: asker.user.id,
      reason: 'harassment',
      description: 'Keeps sending me messages.',
    });
    expect(person.statusCode, person.body).toBe(201);
  });

  it('refuses bad input and reports nobody may make, changing nothing', async () => {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const elsewhere = await createSignedInUser(db(), { campus: 'berkeley.edu' });
    const stranger = await createSignedInUser(db());
    const item = await createItem(db(), { userId: asker.user.id });
    const asked = await ask(asker.cookie);

    expect((await report(undefined, about(asked.id))).statusCode).toBe(401);
    expect((await report(neighbour.cookie, { ...about(asked.id), reportedAskId: 'nope' })).statusCode).toBe(
      400,
    );
    expect((await report(neighbour.cookie, { ...about(asked.id), description: 'short' })).statusCode).toBe(
      400,
    );
    const both = await report(neighbour.cookie, { ...about(asked.id), reportedItemId: item.id });
    expect(both.statusCode).toBe(400);
    const own = await report(asker.cookie, about(asked.id));
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('You cannot report your own ask.');
    const wrongAuthor = await report(neighbour.cookie, {
      ...about(asked.id),
      reportedUserId: stranger.user.id,
    });
    expect(wrongAuthor.statusCode).toBe(400);
    // Another campus never sees the ask: the same 404 as for one that does not exist.
    expect((await report(elsewhere.cookie, about(asked.id))).statusCode).toBe(404);
    expect((await report(neighbour.cookie, about(crypto.randomUUID()))).statusCode).toBe(404);
    expect(await reportsOf(asked.id)).toBe(0);
  });

  it("shows an ask report in the moderators' queue as the ask, with the asker's first name", async () => {
    const asker = await createSignedInUser(db(), { fullName: 'Rosa María Díaz' });
    const neighbour = await createSignedInUser(db());
    const moderator = await createSignedInUser(db(), { email: QUEUE_MODERATOR });
    const asked = await ask(asker.cookie, { title: 'Karaoke machine' });
    const filed = (await report(neighbour.cookie, about(asked.id))).json().report as { id: string };
    // A report of the same person, not of the ask, stays a report of a person.
    const person = (
      await report(neighbour.cookie, {
        reportedUserId: asker.user.id,
        reason: 'harassment',
        description: 'Keeps sending me messages.',
      })
    ).json().report as { id: string };

    const queue = async (cookie = moderator.cookie) => {
      const response = await t.get('/api/admin/reports?status=all&limit=50', cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().reports as { id: string; target: Record<string, unknown> }[];
    };
    const row = (await queue()).find((r) => r.id === filed.id);
    expect(row?.target).toEqual({
      kind: 'ask',
      ask: { id: asked.id, title: 'Karaoke machine', askerFirstName: 'Rosa', hidden: false },
      user: {
        id: asker.user.id,
        fullName: 'Rosa María Díaz',
        username: asker.user.username,
        suspended: false,
        deleted: false,
      },
    });
    expect((await queue()).find((r) => r.id === person.id)?.target.kind).toBe('user');
    // Only moderators read the queue.
    expect((await t.get('/api/admin/reports?status=all', neighbour.cookie)).statusCode).toBe(403);
    expect((await t.get('/api/admin/reports?status=all')).statusCode).toBe(401);

    const detail = (await t.get(`/api/admin/reports/${filed.id}`, moderator.cookie)).json();
    expect(detail.report.target.kind).toBe('ask');
    expect(detail.ask).toMatchObject({
      id: asked.id,
      title: 'Karaoke machine',
      askerFirstName: 'Rosa',
      startDate: day(1),
      endDate: day(2),
      hiddenAt: null,
    });

    const hidden = await t.post(`/api/admin/asks/${asked.id}/hide`, { reportId: filed.id }, moderator.cookie);
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json().ask).toMatchObject({ askerFirstName: 'Rosa', status: 'open' });
    expect((await queue()).find((r) => r.id === filed.id)?.target).toMatchObject({ ask: { hidden: true } });
    const history = (await t.get(`/api/admin/reports/${filed.id}`, moderator.cookie)).json().history as {
      action: string;
    }[];
    expect(history.map((h) => h.action)).toContain('hide_ask');
  });

  it('lets a moderator hide the reported ask from the board, telling its author', async () => {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const moderator = await createSignedInUser(db(), { email: REPORTS_MODERATOR });
    const asked = await ask(asker.cookie, { title: 'Party speaker' });
    const filed = (await report(neighbour.cookie, about(asked.id))).json().report as { id: string };

    const detail = await t.get(`/api/admin/reports/${filed.id}`, moderator.cookie);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().ask).toMatchObject({ id: asked.id, title: 'Party speaker', hiddenAt: null });
    expect(detail.json().user.id).toBe(asker.user.id);

    const hide = (cookie: string, body: Record<string, unknown> = { reportId: filed.id }) =>
      t.post(`/api/admin/asks/${asked.id}/hide`, body, cookie);
    expect((await hide(neighbour.cookie)).statusCode).toBe(403);
    expect((await t.post(`/api/admin/asks/nope/hide`, {}, moderator.cookie)).statusCode).toBe(400);
    const other = await ask(asker.cookie, { title: 'Desk lamp' });
    expect(
      (await t.post(`/api/admin/asks/${other.id}/hide`, { reportId: filed.id }, moderator.cookie)).statusCode,
    ).toBe(400);
    expect((await board(neighbour.cookie)).map((a) => a.id)).toContain(asked.id);

    const hidden = await hide(moderator.cookie);
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json().ask.hiddenAt).not.toBeNull();
    expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(asked.id);
    expect((await hide(moderator.cookie)).statusCode).toBe(409);
    const told = await notices(t, asker.cookie, { type: 'report_update' });
    expect(told.map((n) => n.title)).toContain('Your ask was hidden');
    const [action] = await db()
      .select()
      .from(moderationActions)
      .where(and(eq(moderationActions.reportId, filed.id), eq(moderationActions.action, 'hide_ask')));
    expect(action?.targetUserId).toBe(asker.user.id);
    // Hidden, it is off the board: nobody may report it again.
    expect((await report(moderator.cookie, about(asked.id))).statusCode).toBe(404);
  });
});

describe('unhiding an ask', () => {
  const about = (askId: string) => ({
    reportedAskId: askId,
    reason: 'inappropriate',
    description: 'This ask is not for something one may lend.',
  });
  const unhide = (askId: string, body: Record<string, unknown>, cookie?: string) =>
    t.post(`/api/admin/asks/${askId}/unhide`, body, cookie);
  const actionsOn = (askerId: string, action: 'hide_ask' | 'unhide_ask') =>
    db()
      .select()
      .from(moderationActions)
      .where(and(eq(moderationActions.targetUserId, askerId), eq(moderationActions.action, action)));

  /** An ask reported by a neighbour and hidden from that report by `moderator`. */
  async function hiddenAsk(moderator: { cookie: string }, title: string) {
    const asker = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const asked = await ask(asker.cookie, { title });
    const filed = await t.post('/api/reports', about(asked.id), neighbour.cookie);
    expect(filed.statusCode, filed.body).toBe(201);
    const reportId = filed.json().report.id as string;
    const hidden = await t.post(`/api/admin/asks/${asked.id}/hide`, { reportId }, moderator.cookie);
    expect(hidden.statusCode, hidden.body).toBe(200);
    return { asker, neighbour, asked, reportId };
  }

  it('puts an ask hidden by mistake back on the board, recording it and telling the asker', async () => {
    const moderator = await createSignedInUser(db(), { email: UNHIDE_MODERATORS[0] });
    const { asker, neighbour, asked, reportId } = await hiddenAsk(moderator, 'Sleeping bag');
    expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(asked.id);

    // Moderators only, about a real ask, from a report about it.
    expect((await unhide(asked.id, { reportId })).statusCode).toBe(401);
    expect((await unhide(asked.id, { reportId }, neighbour.cookie)).statusCode).toBe(403);
    expect((await unhide(asked.id, { reportId }, asker.cookie)).statusCode).toBe(403);
    expect((await unhide('nope', {}, moderator.cookie)).statusCode).toBe(400);
    const missing = await unhide(crypto.randomUUID(), {}, moderator.cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Ask not found.');
    const other = await ask(asker.cookie, { title: 'Camp stove' });
    const wrongReport = await unhide(other.id, { reportId }, moderator.cookie);
    expect(wrongReport.statusCode).toBe(400);
    expect(wrongReport.json().message).toBe('That report is not about this ask.');
    expect(await actionsOn(asker.user.id, 'unhide_ask')).toHaveLength(0);

    const unhidden = await unhide(asked.id, { reportId, note: 'Hidden by mistake.' }, moderator.cookie);
    expect(unhidden.statusCode, unhidden.body).toBe(200);
    expect(unhidden.json().ask).toMatchObject({ id: asked.id, hiddenAt: null, status: 'open' });
    expect((await board(neighbour.cookie)).map((a) => a.id)).toContain(asked.id);

    const [action] = await actionsOn(asker.user.id, 'unhide_ask');
    expect(action).toMatchObject({
      adminId: moderator.user.id,
      reportId,
      targetUserId: asker.user.id,
      note: 'Hidden by mistake.',
    });
    const told = await notices(t, asker.cookie, { type: 'report_update' });
    expect(told.find((n) => n.title === 'Your ask is visible again')?.message).toBe(
      "“Sleeping bag” is back on your campus board after a review by CampusLoop's moderators.",
    );
    // Its words follow the asker's language when read later (decision 052).
    expect((await t.put('/api/account/language', { locale: 'es' }, asker.cookie)).statusCode).toBe(200);
    const inSpanish = await notices(t, asker.cookie, { type: 'report_update' });
    expect(inSpanish.find((n) => n.title === 'Tu petición vuelve a estar visible')?.message).toBe(
      '“Sleeping bag” vuelve a estar en el tablón de tu campus tras una revisión de los moderadores de CampusLoop.',
    );
    const history = (await t.get(`/api/admin/reports/${reportId}`, moderator.cookie)).json().history as {
      action: string;
    }[];
    expect(history.map((h) => h.action)).toEqual(expect.arrayContaining(['hide_ask', 'unhide_ask']));

    const again = await unhide(asked.id, {}, moderator.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'NOT_HIDDEN', message: 'This ask is not hidden.' });
    expect(await actionsOn(asker.user.id, 'unhide_ask')).toHaveLength(1);
  });

  it("refuses a moderator's own ask", async () => {
    const moderator = await createSignedInUser(db(), { email: UNHIDE_MODERATORS[1] });
    const own = await ask(moderator.cookie, { title: 'Hiking poles' });
    await db().update(asks).set({ hiddenAt: new Date() }).where(eq(asks.id, own.id));
    const refused = await unhide(own.id, {}, moderator.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('OWN_CASE');
    expect((await db().select().from(asks).where(eq(asks.id, own.id)))[0]!.hiddenAt).not.toBeNull();
  });

  it.each([
    ['closed', 2, 'because it is closed.'],
    ['past its last day', 3, 'because its dates have passed.'],
  ])(
    'tells the asker of an ask %s that it is no longer hidden but stays off the board',
    async (state, n, because) => {
      const moderator = await createSignedInUser(db(), { email: UNHIDE_MODERATORS[n] });
      const { asker, neighbour, asked } = await hiddenAsk(moderator, 'Rain jacket');
      if (state === 'closed') {
        expect((await t.del(`/api/asks/${asked.id}`, asker.cookie)).statusCode).toBe(200);
      } else {
        await db()
          .update(asks)
          .set({ startDate: day(-3), endDate: day(-1) })
          .where(eq(asks.id, asked.id));
      }
      const unhidden = await unhide(asked.id, {}, moderator.cookie);
      expect(unhidden.statusCode, unhidden.body).toBe(200);
      expect(unhidden.json().ask.hiddenAt).toBeNull();
      expect((await board(neighbour.cookie)).map((a) => a.id)).not.toContain(asked.id);
      const told = await notices(t, asker.cookie, { type: 'report_update' });
      expect(told.map((n) => n.title)).not.toContain('Your ask is visible again');
      expect(told.find((n) => n.title === 'Your ask is no longer hidden')?.message).toBe(
        `“Rain jacket” is no longer hidden after a review by CampusLoop's moderators. It stays off your campus board ${because}`,
      );
    },
  );

  it('lets one of two moderators unhiding the same ask at once do it', async () => {
    const first = await createSignedInUser(db(), { email: UNHIDE_MODERATORS[4] });
    const second = await createSignedInUser(db(), { email: UNHIDE_MODERATORS[5] });
    const { asker, asked } = await hiddenAsk(first, 'Folding table');
    const answers = await Promise.all([
      unhide(asked.id, {}, first.cookie),
      unhide(asked.id, {}, second.cookie),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe('NOT_HIDDEN');
    expect(await actionsOn(asker.user.id, 'unhide_ask')).toHaveLength(1);
    const told = await notices(t, asker.cookie, { type: 'report_update' });
    expect(told.filter((n) => n.title === 'Your ask is visible again')).toHaveLength(1);
  });
});
