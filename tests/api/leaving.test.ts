import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FORMER_STUDENT } from '#shared/schemas/leaving.ts';
import { conversations, messages } from '../../src/server/db/schema/chat.ts';
import { reports, reviews } from '../../src/server/db/schema/community.ts';
import { notificationDeliveries, pushSubscriptions } from '../../src/server/db/schema/deliveries.ts';
import { reservationHandovers } from '../../src/server/db/schema/handovers.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { billingHistory } from '../../src/server/db/schema/payments.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import {
  emailChanges,
  notificationPreferences,
  passwordResets,
  sessions,
  users,
} from '../../src/server/db/schema/users.ts';
import { waitlistEntries } from '../../src/server/db/schema/waitlist.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { createItem, createSignedInUser, TEST_PASSWORD } from '../factories.ts';
import { mailsTo } from '../helpers/outbox.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 023: "Download my data" and "Delete my account", and what others
// (the other party of a chat, a moderator) see of a person who left.

const ADMIN = 'moderator.leaving@stanford.edu';
const t = setupTestApp({ adminEmails: [ADMIN] });
const db = () => t.database.db;

/** A lender and a borrower with one finished loan between them: a chat, reviews and billing rows. */
async function history() {
  const lender = await createSignedInUser(db());
  const borrower = await createSignedInUser(db());
  const item = await createItem(db(), { userId: lender.user.id, title: 'Camping stove' });
  const [reservation] = await db()
    .insert(reservations)
    .values({
      itemId: item.id,
      borrowerId: borrower.user.id,
      providerId: lender.user.id,
      startDate: day(-10),
      endDate: day(-8),
      status: 'completed',
      rentalCents: 600,
      completedAt: new Date(),
    })
    .returning();
  const [chat] = await db()
    .insert(conversations)
    .values({ itemId: item.id, buyerId: borrower.user.id, sellerId: lender.user.id })
    .returning();
  await db()
    .insert(messages)
    .values([
      { conversationId: chat!.id, senderId: borrower.user.id, content: 'Is the stove free this weekend?' },
      { conversationId: chat!.id, senderId: lender.user.id, content: 'Yes, pick it up Friday.' },
    ]);
  await db().insert(reviews).values({
    reservationId: reservation!.id,
    reviewerId: borrower.user.id,
    revieweeId: lender.user.id,
    itemId: item.id,
    rating: 5,
    comment: 'Great stove, friendly lender.',
    reviewType: 'borrower_to_lender',
  });
  await db()
    .insert(billingHistory)
    .values([
      {
        userId: borrower.user.id,
        reservationId: reservation!.id,
        amountCents: 600,
        status: 'completed',
        kind: 'payment',
        description: 'Payment for Camping stove',
      },
      {
        userId: lender.user.id,
        reservationId: reservation!.id,
        amountCents: 600,
        status: 'completed',
        kind: 'earning',
        description: `Earning: Camping stove lent to ${borrower.user.fullName}`,
      },
    ]);
  return { lender, borrower, item, reservation: reservation!, chat: chat! };
}

describe('Download my data', () => {
  it('answers signed out with 401', async () => {
    expect((await t.get('/api/account/export')).statusCode).toBe(401);
  });

  it('holds the profile, items, reservations, messages, reviews written, billing and handover notes, as an attachment', async () => {
    const { borrower, lender, reservation } = await history();
    const photo = { url: '/uploads/items/2026/11/stove.jpg', addedAt: new Date().toISOString() };
    await db()
      .insert(reservationHandovers)
      .values({
        reservationId: reservation.id,
        stage: 'return',
        authorId: borrower.user.id,
        photos: [photo],
        note: 'Cleaned and dry.',
      });
    const response = await t.get('/api/account/export', borrower.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="campusloop-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json();
    expect(data.profile).toMatchObject({
      id: borrower.user.id,
      email: borrower.user.email,
      username: borrower.user.username,
      fullName: borrower.user.fullName,
    });
    expect(data.reservations).toEqual([
      expect.objectContaining({
        id: reservation.id,
        role: 'borrower',
        itemTitle: 'Camping stove',
        otherParty: lender.user.fullName,
        status: 'completed',
      }),
    ]);
    expect(data.messages.map((m: { content: string; sentByMe: boolean }) => [m.content, m.sentByMe])).toEqual(
      [
        ['Is the stove free this weekend?', true],
        ['Yes, pick it up Friday.', false],
      ],
    );
    expect(data.reviewsWritten).toEqual([
      expect.objectContaining({
        rating: 5,
        comment: 'Great stove, friendly lender.',
        about: lender.user.fullName,
      }),
    ]);
    expect(data.billing).toEqual([expect.objectContaining({ amountCents: 600, kind: 'payment' })]);
    expect(data.items).toEqual([]);
    expect(data.handovers).toEqual([
      expect.objectContaining({
        reservationId: reservation.id,
        itemTitle: 'Camping stove',
        stage: 'return',
        note: 'Cleaned and dry.',
        photos: [photo],
      }),
    ]);

    const lenders = (await t.get('/api/account/export', lender.cookie)).json();
    expect(lenders.handovers).toEqual([]);
    expect(lenders.items).toEqual([expect.objectContaining({ title: 'Camping stove' })]);
    expect(lenders.reservations[0]).toMatchObject({ role: 'lender', otherParty: borrower.user.fullName });
    expect(lenders.reviewsWritten).toEqual([]);
    // Another person's export never carries someone else's address.
    expect(JSON.stringify(lenders)).not.toContain(borrower.user.email);
  });
});

describe('Delete my account', () => {
  const remove = (cookie: string | undefined, currentPassword = TEST_PASSWORD) =>
    t.post('/api/account/delete', { currentPassword }, cookie);

  it('answers signed out with 401 and a wrong password with 400, deleting nothing', async () => {
    expect((await remove(undefined)).statusCode).toBe(401);
    const { user, cookie } = await createSignedInUser(db());
    const wrong = await remove(cookie, 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row!.deletedAt).toBeNull();
  });

  it('is refused with 409 and the reason while a reservation is approved, active or its return unsettled', async () => {
    // A return the lender has not answered, or a deposit claim not settled, still moves money.
    for (const status of ['approved', 'active', 'returned', 'claimed', 'disputed'] as const) {
      for (const side of ['borrower', 'lender'] as const) {
        const { lender, borrower, reservation } = await history();
        await db().update(reservations).set({ status }).where(eq(reservations.id, reservation.id));
        const response = await remove((side === 'borrower' ? borrower : lender).cookie);
        expect(response.statusCode, `${status} ${side}`).toBe(409);
        expect(response.json()).toMatchObject({
          code: 'ACCOUNT_IN_USE',
          message: expect.stringContaining('approved or in progress'),
        });
        const [row] = await db()
          .select()
          .from(users)
          .where(eq(users.id, (side === 'borrower' ? borrower : lender).user.id));
        expect(row!.deletedAt).toBeNull();
      }
    }
  });

  it('is refused with 409 while money is held for a request, on either side', async () => {
    const { lender, borrower, item } = await scenario(t);
    const { create } = await reserve(t, borrower.cookie, item.id, day(5), day(6));
    expect(create?.statusCode).toBe(201);
    for (const who of [borrower, lender]) {
      const response = await remove(who.cookie);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'ACCOUNT_IN_USE',
        message: expect.stringContaining('Money'),
      });
    }
  });

  it('erases the person, keeps their messages and reviews under "Former student", and ends every session', async () => {
    const { borrower, lender, chat, item } = await history();
    const { user } = borrower;
    const phone = await startSession(db(), user.id, 30);
    // What only they had: an open e-mail change, an e-mail choice, a reset link.
    await db()
      .insert(emailChanges)
      .values({
        tokenHash: `change-${user.id}`,
        userId: user.id,
        newEmail: `new.${user.username}@stanford.edu`,
        expiresAt: new Date(Date.now() + 3600_000),
      });
    await db()
      .insert(notificationPreferences)
      .values({ userId: user.id, kind: 'account_activity', email: false });
    await db()
      .insert(passwordResets)
      .values({
        tokenHash: `reset-${user.id}`,
        userId: user.id,
        expiresAt: new Date(Date.now() + 3600_000),
      });
    // A phone that gets their pushes, an e-mail about a message still to go, and dates they wait for.
    await db()
      .insert(pushSubscriptions)
      .values({ userId: user.id, endpoint: `https://push.example/${user.id}`, p256dh: 'key', auth: 'auth' });
    await db()
      .insert(notificationDeliveries)
      .values({ userId: user.id, channel: 'email', conversationId: chat.id });
    await db()
      .insert(waitlistEntries)
      .values({ userId: user.id, itemId: item.id, startDate: day(10), endDate: day(11) });
    // Their own listing, with a free request waiting on it from someone else.
    const own = await createItem(db(), { userId: user.id, title: 'Bike pump' });
    const asker = await createSignedInUser(db());
    await db()
      .insert(reservations)
      .values({
        itemId: own.id,
        borrowerId: asker.user.id,
        providerId: user.id,
        startDate: day(3),
        endDate: day(4),
      });
    // A report about them, and one of theirs.
    await db().insert(reports).values({
      reporterId: lender.user.id,
      reportedUserId: user.id,
      reason: 'inappropriate',
      description: 'Did not come to the meetup on time.',
    });

    const response = await remove(borrower.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.cookies.find((c) => c.name === 'cl_session')?.value).toBe('');

    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ fullName: FORMER_STUDENT, profileImage: null, stripeCustomerId: null });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(row!.email).not.toContain(user.username);
    expect(row!.username).not.toBe(user.username);
    expect(JSON.stringify(row)).not.toContain(user.fullName);

    for (const table of [
      sessions,
      emailChanges,
      notificationPreferences,
      passwordResets,
      pushSubscriptions,
      notificationDeliveries,
      waitlistEntries,
    ]) {
      expect(await db().select().from(table).where(eq(table.userId, user.id))).toEqual([]);
    }
    expect((await t.get('/api/auth/me', borrower.cookie)).json().user).toBeNull();
    expect((await t.get('/api/auth/me', `cl_session=${phone.token}`)).json().user).toBeNull();
    const login = await t.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(login.statusCode).toBe(401);

    // Their listing is gone, the request on it cancelled and its asker told.
    const [listing] = await db().select().from(items).where(eq(items.id, own.id));
    expect(listing!.deletedAt).toBeInstanceOf(Date);
    expect((await t.get(`/api/items/${own.id}`)).statusCode).toBe(404);
    const [cancelled] = await db().select().from(reservations).where(eq(reservations.itemId, own.id));
    expect(cancelled!.status).toBe('cancelled');
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, asker.user.id), eq(notifications.type, 'reservation_cancelled')));
    expect(told).toHaveLength(1);
    // The lender's item is untouched.
    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(200);

    // Messages and reviews stay, under "Former student", with no photo.
    expect(await db().select().from(messages).where(eq(messages.conversationId, chat.id))).toHaveLength(2);
    const chats = (await t.get('/api/conversations', lender.cookie)).json().conversations;
    expect(chats[0].otherUser).toMatchObject({ fullName: FORMER_STUDENT, profileImage: null });
    expect(await db().select().from(reviews).where(eq(reviews.reviewerId, user.id))).toHaveLength(1);

    // Billing rows stay, without the name.
    const kept = await db()
      .select({ userId: billingHistory.userId, description: billingHistory.description })
      .from(billingHistory)
      .innerJoin(reservations, eq(reservations.id, billingHistory.reservationId))
      .where(eq(reservations.borrowerId, user.id));
    expect(kept).toHaveLength(2);
    expect(kept.map((b) => b.description).join(' ')).not.toContain(user.fullName);
    expect(kept.find((b) => b.userId === lender.user.id)!.description).toBe(
      `Earning: Camping stove lent to ${FORMER_STUDENT}`,
    );

    // A last e-mail to the old address.
    const [mail] = await mailsTo(t.outboxDir, user.email);
    expect(mail!.subject).toBe('Your CampusLoop account was deleted');
    expect(mail!.text).toContain('Former student');

    // Item 5: the moderator still sees the report, about "Former student".
    const admin = await createSignedInUser(db(), { email: ADMIN });
    const queue = (await t.get('/api/admin/reports', admin.cookie)).json();
    const report = queue.reports.find(
      (r: { target: { kind: string; user?: { id: string } } }) => r.target.user?.id === user.id,
    );
    expect(report.target.user).toMatchObject({ fullName: FORMER_STUDENT, deleted: true });
    expect(JSON.stringify(queue)).not.toContain(user.fullName);

    // Deleting twice: the session is gone, so it is a 401.
    expect((await remove(borrower.cookie)).statusCode).toBe(401);
  });

  it('deletes their handover records and the photo files nothing else shows; the other person keeps theirs', async () => {
    const { borrower, lender, reservation, item } = await history();
    const storage = t.app.storage;
    const file = async (name: string) => {
      const key = `items/2026/11/${name}`;
      await storage.put(`${key}-thumb.jpg`, Buffer.from('thumb'), 'image/jpeg');
      return storage.put(`${key}.jpg`, Buffer.from('photo'), 'image/jpeg');
    };
    const own = await file('0b6c5a8e-1111-4111-8111-111111111111');
    // A URL also on a listing (sent twice): its file stays while the listing shows it.
    const listed = await file('0b6c5a8e-2222-4222-8222-222222222222');
    await db()
      .update(items)
      .set({ images: [listed] })
      .where(eq(items.id, item.id));
    const theirs = await file('0b6c5a8e-3333-4333-8333-333333333333');
    const at = new Date().toISOString();
    await db()
      .insert(reservationHandovers)
      .values([
        {
          reservationId: reservation.id,
          stage: 'pickup',
          authorId: borrower.user.id,
          photos: [
            { url: own, addedAt: at },
            { url: listed, addedAt: at },
          ],
          note: 'A dent on the lid.',
        },
        {
          reservationId: reservation.id,
          stage: 'pickup',
          authorId: lender.user.id,
          photos: [{ url: theirs, addedAt: at }],
        },
      ]);
    const status = async (url: string) => (await t.get(url)).statusCode;
    expect(await status(own)).toBe(200);

    expect((await remove(borrower.cookie)).statusCode).toBe(200);
    const left = await db()
      .select()
      .from(reservationHandovers)
      .where(eq(reservationHandovers.reservationId, reservation.id));
    expect(left.map((h) => h.authorId)).toEqual([lender.user.id]);
    expect(await status(own)).toBe(404);
    expect(await status(own.replace(/\.jpg$/, '-thumb.jpg'))).toBe(404);
    expect(await status(listed)).toBe(200);
    expect(await status(theirs)).toBe(200);
  });
});
