import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversations, messages } from '../../src/server/db/schema/chat.ts';
import { reservationHandovers } from '../../src/server/db/schema/handovers.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { createSignedInUser } from '../factories.ts';
import { bookingAt, notices } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 033: the condition of the item at pickup and at return. Either person adds
// up to 5 photos (the upload pipeline's URLs) and a note per stage; additions append, nothing is taken
// back; both see them with their times, a moderator only while the claim is disputed, with the chat.
// On both databases.

const MODERATOR = 'handover.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR] });
const db = () => t.database.db;
const HOUR = 3600_000;
let theModerator: ReturnType<typeof createSignedInUser> | undefined;
const moderatorUser = () => {
  theModerator ??= createSignedInUser(db(), { email: MODERATOR });
  return theModerator;
};

/** A photo URL our storage gave out (the pipeline's shape); `n` tells them apart. */
const photo = (n: number | string) => `/uploads/items/2026/11/handover-${n}.jpg`;
const add = (id: string, body: object, cookie?: string) =>
  t.post(`/api/reservations/${id}/handovers`, body, cookie);
const read = (id: string, cookie?: string) => t.get(`/api/reservations/${id}/handovers`, cookie);
const records = (id: string) =>
  db().select().from(reservationHandovers).where(eq(reservationHandovers.reservationId, id));
/** The 'handover_added' notices a person has about a reservation, newest first. */
const handoverNotices = (cookie: string, id: string) => notices(t, cookie, { id, type: 'handover_added' });

/** A $5/day drill with a $20 deposit, requested, approved and charged: waiting for the pickup. */
const approvedBorrow = () => bookingAt(t, 'approved');

/** The same, handed over ("Picked Up"). */
const activeBorrow = () => bookingAt(t, 'active', { pickup: 'borrower' });

/** Handed over, returned, claimed by the lender and disputed by the borrower. */
const disputedBorrow = () => bookingAt(t, 'disputed', { pickup: 'borrower' });

describe('adding the condition at pickup', () => {
  it('either person adds photos and a note; both see both, with times, on their reservations', async () => {
    const { lender, borrower, id } = await approvedBorrow();
    const before = Date.now();
    const mine = await add(
      id,
      { stage: 'pickup', photos: [photo('b1'), photo('b2')], note: '  Small scuff on the battery.  ' },
      borrower.cookie,
    );
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await add(id, { stage: 'pickup', photos: [photo('l1')] }, lender.cookie);
    expect(theirs.statusCode, theirs.body).toBe(200);

    const list = theirs.json().handovers;
    expect(list).toHaveLength(2);
    const byBorrower = list.find((h: { author: string }) => h.author === 'borrower');
    expect(byBorrower).toMatchObject({
      stage: 'pickup',
      note: 'Small scuff on the battery.',
      photos: [{ url: photo('b1') }, { url: photo('b2') }],
    });
    expect(Date.parse(byBorrower.photos[0].addedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(byBorrower.noteAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(list.find((h: { author: string }) => h.author === 'provider')).toMatchObject({
      note: null,
      photos: [{ url: photo('l1') }],
    });

    // Each hears of the other's addition (not of their own).
    const toLender = await handoverNotices(lender.cookie, id);
    expect(toLender).toHaveLength(1);
    expect(toLender[0]).toMatchObject({ title: 'Condition at pickup' });
    expect(toLender[0]!.message).toMatch(/added 2 photos and a note of Cordless drill's condition at pickup/);
    expect((await handoverNotices(borrower.cookie, id)).map((n) => n.message)).toEqual([
      expect.stringMatching(/added 1 photo of Cordless drill's condition at pickup/),
    ]);

    // Both people read the same records, on the endpoint and on My Reservations' cards.
    for (const cookie of [borrower.cookie, lender.cookie]) {
      expect((await read(id, cookie)).json().handovers).toEqual(list);
      const card = (await t.get('/api/reservations', cookie))
        .json()
        .reservations.find((r: { id: string }) => r.id === id);
      expect(card.handovers).toEqual(list);
    }
  });

  it('adding again appends: a photo sent twice is kept once, at most 5 in all, the note once', async () => {
    const { borrower, id } = await approvedBorrow();
    expect(
      (await add(id, { stage: 'pickup', photos: [photo(1), photo(2)] }, borrower.cookie)).statusCode,
    ).toBe(200);
    const again = await add(
      id,
      { stage: 'pickup', photos: [photo(2), photo(3), photo(2)], note: 'Charger included.' },
      borrower.cookie,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().handovers[0].photos.map((p: { url: string }) => p.url)).toEqual([
      photo(1),
      photo(2),
      photo(3),
    ]);
    // Three more would make six: refused whole, with how many still fit; nothing changes.
    const over = await add(id, { stage: 'pickup', photos: [photo(4), photo(5), photo(6)] }, borrower.cookie);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('You can keep at most 5 photos at pickup: 2 more can be added.');
    expect((await records(id))[0]!.photos).toHaveLength(3);
    // The same note again (a double submit) is fine; another one is refused: the note stays as written.
    expect((await add(id, { stage: 'pickup', note: 'Charger included.' }, borrower.cookie)).statusCode).toBe(
      200,
    );
    const changed = await add(id, { stage: 'pickup', note: 'No charger after all.' }, borrower.cookie);
    expect(changed.statusCode).toBe(409);
    expect(changed.json().code).toBe('HANDOVER_NOTE_WRITTEN');
    const [row] = await records(id);
    expect(row!.note).toBe('Charger included.');
    expect(row!.photos).toHaveLength(3);
    expect(await records(id)).toHaveLength(1);
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const { borrower, id } = await approvedBorrow();
    const cases: [object, string][] = [
      [{ stage: 'pickup' }, 'Add a photo or a note.'],
      [{ stage: 'pickup', photos: [], note: '   ' }, 'Add a photo or a note.'],
      [{ stage: 'during', photos: [photo(1)] }, 'The stage is pickup or return'],
      [{ photos: [photo(1)] }, 'The stage is pickup or return'],
      [{ stage: 'pickup', photos: [1, 2, 3, 4, 5, 6].map(photo) }, 'You can add at most 5 photos.'],
      [{ stage: 'pickup', note: 'x'.repeat(501) }, 'The note must be at most 500 characters'],
      [{ stage: 'pickup', photos: 'a.jpg' }, ''],
      // Photos our storage never gave out: another site's, a data: URL, an API path, another folder.
      [{ stage: 'pickup', photos: ['https://tracker.example/p.jpg'] }, 'This photo was not uploaded'],
      [{ stage: 'pickup', photos: ['data:image/png;base64,AAAA'] }, 'This photo was not uploaded'],
      [{ stage: 'pickup', photos: ['/api/reservations'] }, 'This photo was not uploaded'],
      [{ stage: 'pickup', photos: ['/uploads/avatars/2026/11/x.jpg'] }, 'This photo was not uploaded'],
      [{ stage: 'pickup', photos: ['/uploads/items/../../etc/passwd.jpg'] }, 'This photo was not uploaded'],
    ];
    for (const [body, message] of cases) {
      const response = await add(id, body, borrower.cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    // A 500-character note is fine.
    expect((await add(id, { stage: 'pickup', note: 'y'.repeat(500) }, borrower.cookie)).statusCode).toBe(200);
    expect(await records(id)).toHaveLength(1);
    expect(
      (
        await t.post(
          '/api/reservations/not-a-uuid/handovers',
          { stage: 'pickup', note: 'hi' },
          borrower.cookie,
        )
      ).statusCode,
    ).toBe(400);
  });
});

describe('when each stage is open', () => {
  it('pickup: from approval to 24 hours after the pickup; return: from the pickup to the claim', async () => {
    const s = await scenario(t);
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(2));
    const id = r.reservation.id as string;
    const note = (stage: string) => ({ stage, note: `At ${stage}.` });
    // Pending: nothing yet.
    for (const stage of ['pickup', 'return']) {
      const early = await add(id, note(stage), s.borrower.cookie);
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe('HANDOVER_CLOSED');
    }
    await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
    await settlePayments(t);
    expect((await add(id, note('return'), s.lender.cookie)).statusCode).toBe(409);
    expect((await add(id, note('pickup'), s.lender.cookie)).statusCode).toBe(200);
    await t.put(`/api/reservations/${id}`, { status: 'active' }, s.borrower.cookie);
    const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
    expect(row!.pickedUpAt).toBeInstanceOf(Date);
    expect((await add(id, note('pickup'), s.borrower.cookie)).statusCode).toBe(200);
    expect((await add(id, note('return'), s.borrower.cookie)).statusCode).toBe(200);
    // 25 hours after the pickup, pickup photos would be of a used item: the return is for those.
    await db()
      .update(reservations)
      .set({ pickedUpAt: new Date(Date.now() - 25 * HOUR) })
      .where(eq(reservations.id, id));
    const late = await add(id, { stage: 'pickup', photos: [photo('late')] }, s.lender.cookie);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/24 hours after the pickup/);
    expect((await add(id, { stage: 'return', photos: [photo('r1')] }, s.lender.cookie)).statusCode).toBe(200);
    // Returned and claimed: still open for the return.
    await t.put(`/api/reservations/${id}`, { status: 'returned' }, s.borrower.cookie);
    expect((await add(id, { stage: 'return', photos: [photo('r2')] }, s.lender.cookie)).statusCode).toBe(200);
    await t.post(
      `/api/reservations/${id}/claim`,
      { description: 'The chuck is cracked and wobbles.', amount: '5.00' },
      s.lender.cookie,
    );
    expect((await add(id, { stage: 'return', photos: [photo('r3')] }, s.borrower.cookie)).statusCode).toBe(
      200,
    );
    // Disputed: the moderator decides on a record that no longer changes.
    await t.post(
      `/api/reservations/${id}/claim/dispute`,
      { note: 'It was cracked already when I picked it up.' },
      s.borrower.cookie,
    );
    for (const stage of ['pickup', 'return']) {
      const frozen = await add(id, { stage, photos: [photo('after')] }, s.borrower.cookie);
      expect(frozen.statusCode).toBe(409);
      expect(frozen.json().message).toMatch(/moderator/);
    }
    const kept = await records(id);
    expect(kept.flatMap((h) => h.photos.map((p) => p.url)).sort()).toEqual(
      [photo('r1'), photo('r2'), photo('r3')].sort(),
    );
  });

  it('completed or cancelled: closed', async () => {
    const done = await activeBorrow();
    await t.put(`/api/reservations/${done.id}`, { status: 'completed' }, done.lender.cookie);
    await settlePayments(t);
    expect((await add(done.id, { stage: 'return', note: 'Fine.' }, done.borrower.cookie)).statusCode).toBe(
      409,
    );
    const cancelled = await approvedBorrow();
    await t.put(`/api/reservations/${cancelled.id}`, { status: 'cancelled' }, cancelled.borrower.cookie);
    await settlePayments(t);
    expect(
      (await add(cancelled.id, { stage: 'pickup', note: 'Hm.' }, cancelled.lender.cookie)).statusCode,
    ).toBe(409);
  });
});

describe('who may read and add', () => {
  it('signed out 401; a stranger and a moderator (undisputed) learn nothing: 404; nothing stored', async () => {
    const { stranger, borrower, id } = await approvedBorrow();
    const moderator = await moderatorUser();
    await add(id, { stage: 'pickup', photos: [photo(1)] }, borrower.cookie);
    expect((await add(id, { stage: 'pickup', note: 'Mine now.' })).statusCode).toBe(401);
    expect((await read(id)).statusCode).toBe(401);
    for (const cookie of [stranger.cookie, moderator.cookie]) {
      const write = await add(id, { stage: 'pickup', note: 'Mine now.' }, cookie);
      expect(write.statusCode).toBe(404);
      expect(write.json().message).toBe('Reservation not found.');
      expect((await read(id, cookie)).statusCode).toBe(404);
    }
    expect((await read('00000000-0000-4000-8000-000000000000', borrower.cookie)).statusCode).toBe(404);
    expect(await records(id)).toHaveLength(1);
  });

  it("a moderator reads a disputed reservation's handovers and chat, read-only; nobody else reads the chat", async () => {
    const { lender, borrower, stranger, id, item } = await disputedBorrow();
    const moderator = await moderatorUser();
    // Written before the claim (the pickup's); the records are frozen now.
    await db()
      .insert(reservationHandovers)
      .values({
        reservationId: id,
        stage: 'pickup',
        authorId: borrower.user.id,
        photos: [{ url: photo('crack'), addedAt: new Date().toISOString() }],
        note: 'Hairline crack on the chuck.',
      });
    const [chat] = await db()
      .insert(conversations)
      .values({ itemId: item.id, buyerId: borrower.user.id, sellerId: lender.user.id })
      .returning();
    await db()
      .insert(messages)
      .values([
        { conversationId: chat!.id, senderId: borrower.user.id, content: 'Heads up: the chuck has a crack.' },
        { conversationId: chat!.id, senderId: lender.user.id, content: 'It was fine when I lent it.' },
      ]);

    const seen = await read(id, moderator.cookie);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().handovers).toMatchObject([
      { stage: 'pickup', author: 'borrower', note: 'Hairline crack on the chuck.' },
    ]);
    const queue = (await t.get('/api/admin/claims', moderator.cookie)).json().claims;
    expect(queue.find((c: { id: string }) => c.id === id).handovers).toEqual(seen.json().handovers);
    // Moderators read; they do not add.
    expect((await add(id, { stage: 'return', note: 'Moderator here.' }, moderator.cookie)).statusCode).toBe(
      404,
    );

    const talk = await t.get(`/api/admin/claims/${id}/chat`, moderator.cookie);
    expect(talk.statusCode, talk.body).toBe(200);
    expect(talk.json()).toEqual({
      messages: [
        expect.objectContaining({ author: 'borrower', content: 'Heads up: the chuck has a crack.' }),
        expect.objectContaining({ author: 'provider', content: 'It was fine when I lent it.' }),
      ],
      hasMore: false,
    });
    // Reading it marks nothing read for the two people.
    const unread = await db().select().from(messages).where(eq(messages.conversationId, chat!.id));
    expect(unread.every((m) => !m.isRead)).toBe(true);
    for (const cookie of [lender.cookie, borrower.cookie, stranger.cookie]) {
      expect((await t.get(`/api/admin/claims/${id}/chat`, cookie)).statusCode).toBe(403);
    }
    expect((await t.get(`/api/admin/claims/${id}/chat`)).statusCode).toBe(401);
    // Not disputed (any more, or ever): no chat for the moderator.
    const other = await approvedBorrow();
    expect((await t.get(`/api/admin/claims/${other.id}/chat`, moderator.cookie)).statusCode).toBe(404);
    const decided = await t.post(
      `/api/admin/claims/${id}/decide`,
      { amountAwarded: '6.00' },
      moderator.cookie,
    );
    expect(decided.statusCode, decided.body).toBe(200);
    await settlePayments(t);
    expect((await t.get(`/api/admin/claims/${id}/chat`, moderator.cookie)).statusCode).toBe(404);
    expect((await read(id, moderator.cookie)).statusCode).toBe(404);
    // The two people still see their records after the decision.
    expect((await read(id, lender.cookie)).json().handovers).toHaveLength(1);
  });
});

describe('at once', () => {
  it('a double submit, repeated ten times at once, keeps each photo once in one record', async () => {
    const { borrower, lender, id } = await approvedBorrow();
    const body = { stage: 'pickup', photos: [photo('a'), photo('b'), photo('c')], note: 'As listed.' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => add(id, body, borrower.cookie)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    const rows = await records(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.photos.map((p) => p.url)).toEqual([photo('a'), photo('b'), photo('c')]);
    expect(rows[0]!.note).toBe('As listed.');
    // One addition, so one notice: the nine repeats changed nothing and told nobody.
    expect(await handoverNotices(lender.cookie, id)).toHaveLength(1);
  });

  it('additions that together pass 5 photos: they append in turn, the one that would pass is refused', async () => {
    const { borrower, lender, id } = await approvedBorrow();
    // The record exists already: each addition reads what is kept and appends, one after the other.
    expect((await add(id, { stage: 'pickup', photos: [photo('first')] }, borrower.cookie)).statusCode).toBe(
      200,
    );
    const mine = (n: string) =>
      add(id, { stage: 'pickup', photos: [photo(`${n}1`), photo(`${n}2`)] }, borrower.cookie);
    const theirs = () => add(id, { stage: 'pickup', photos: [photo('l1'), photo('l2')] }, lender.cookie);
    const answers = await Promise.all([mine('x'), theirs(), mine('y'), mine('z')]);
    const codes = answers.map((a) => a.statusCode);
    // The lender's record is their own: unaffected by the borrower's race.
    expect(codes[1]).toBe(200);
    // 1 + 2 + 2 = 5 fit; the third pair would make 7.
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 400)).toHaveLength(1);
    const rows = await records(id);
    expect(rows).toHaveLength(2);
    const borrowerRow = rows.find((r) => r.authorId === borrower.user.id)!;
    expect(borrowerRow.photos).toHaveLength(5);
    expect(new Set(borrowerRow.photos.map((p) => p.url)).size).toBe(5);
  });

  it('an addition racing "Picked Up" is decided by the lock: the stage is checked against the status committed', async () => {
    const { borrower, lender, id } = await activeBorrow();
    await db()
      .update(reservations)
      .set({ pickedUpAt: new Date(Date.now() - 23 * HOUR) })
      .where(eq(reservations.id, id));
    const [returned, added] = await Promise.all([
      t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie),
      add(id, { stage: 'pickup', photos: [photo('race')] }, lender.cookie),
    ]);
    expect(returned.statusCode).toBe(200);
    // Either the addition ran before the return (200) or after it (409): never a pickup photo of a returned item.
    expect([200, 409]).toContain(added.statusCode);
    const rows = await records(id);
    expect(rows.length).toBe(added.statusCode === 200 ? 1 : 0);
  });
});
