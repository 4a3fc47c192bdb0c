import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/server/clock.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { reminderService } from '../../src/server/features/reminders/service.ts';
import type { ReminderKind } from '../../src/shared/constants.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { notices } from '../helpers/booking-scenario.ts';
import { TZ } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Reminders by the campus clock, sent once each, never for a cancelled borrow, also on
// the day summer time ends (1 November 2026 in Los Angeles). The clock is the job's own:
// the test sets it instead of waiting for the evening. On both databases.

const t = setupTestApp();
const EXPIRY_HOURS = 48;

async function booking(
  status: string,
  startDate: string,
  endDate: string,
  createdAt = new Date('2026-10-20T12:00:00Z'),
) {
  const db = t.database.db;
  const lender = await createSignedInUser(db, { fullName: 'Maya Chen' });
  const borrower = await createSignedInUser(db, { fullName: 'Jordan Lee' });
  const item = await createItem(db, { userId: lender.user.id, title: 'Film camera' });
  const [row] = await db
    .insert(reservations)
    .values({
      itemId: item.id,
      borrowerId: borrower.user.id,
      providerId: lender.user.id,
      startDate,
      endDate,
      status,
      createdAt,
    })
    .returning();
  return { lender, borrower, reservation: row! };
}

async function sentKinds(reservationId: string): Promise<ReminderKind[]> {
  return (await reminderService.sentFor(t.database.db, [reservationId])).map((r) => r.kind as ReminderKind);
}

function roundAt(iso: string) {
  return reminderService.sendDue({
    db: t.database.db,
    clock: fixedClock(new Date(iso)),
    timeZone: TZ,
    expiryHours: EXPIRY_HOURS,
  });
}

describe('pickup reminders', () => {
  it('the evening before (6 pm PDT) and the morning of (8 am PST) reach both, once each', async () => {
    const { lender, borrower, reservation } = await booking('approved', '2026-11-01', '2026-11-03');

    await roundAt('2026-11-01T00:59:00Z');
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toEqual([]);

    await roundAt('2026-11-01T01:00:00Z');
    const [eve] = await notices(t, borrower.cookie, { id: reservation.id });
    expect(eve).toMatchObject({
      type: 'pickup_reminder',
      title: 'Pickup tomorrow',
      message:
        'You pick up Film camera from Maya Chen tomorrow, Nov 1. Your 6-digit pickup code is in My Reservations.',
    });
    expect(await notices(t, lender.cookie, { id: reservation.id })).toEqual([
      expect.objectContaining({
        title: 'Handover tomorrow',
        message:
          'Jordan Lee picks up Film camera tomorrow, Nov 1. Ask for their 6-digit pickup code at the handover.',
      }),
    ]);

    // The next rounds of the evening send nothing more.
    await roundAt('2026-11-01T01:05:00Z');
    await roundAt('2026-11-01T06:00:00Z');
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toHaveLength(1);

    // 7:59 am PST is not 8 am, though it would have been 8:59 am yesterday's way.
    await roundAt('2026-11-01T15:59:00Z');
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toHaveLength(1);
    await roundAt('2026-11-01T16:00:00Z');
    expect((await notices(t, borrower.cookie, { id: reservation.id })).map((n) => n.title)).toEqual([
      'Pickup today',
      'Pickup tomorrow',
    ]);
    expect((await notices(t, lender.cookie, { id: reservation.id })).map((n) => n.title)).toEqual([
      'Handover today',
      'Handover tomorrow',
    ]);
    expect((await sentKinds(reservation.id)).sort()).toEqual(['pickup_eve', 'pickup_morning']);
  });

  it('a cancelled borrow is never reminded', async () => {
    const { borrower, lender, reservation } = await booking('approved', '2026-11-05', '2026-11-06');
    await t.database.db
      .update(reservations)
      .set({ status: 'cancelled' })
      .where(eq(reservations.id, reservation.id));
    await roundAt('2026-11-05T02:00:00Z');
    await roundAt('2026-11-05T16:30:00Z');
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toEqual([]);
    expect(await notices(t, lender.cookie, { id: reservation.id })).toEqual([]);
    expect(await sentKinds(reservation.id)).toEqual([]);
  });

  it('a server down all evening does not send "tomorrow" the next morning', async () => {
    const { borrower, reservation } = await booking('approved', '2026-11-10', '2026-11-11');
    await roundAt('2026-11-10T16:30:00Z');
    expect((await notices(t, borrower.cookie, { id: reservation.id })).map((n) => n.title)).toEqual([
      'Pickup today',
    ]);
  });
});

describe('return reminders', () => {
  it('reach the borrower alone, the evening before and the morning of the return', async () => {
    const { borrower, lender, reservation } = await booking('active', '2026-10-30', '2026-11-02');
    // 6 pm PST on 1 November is 02:00 UTC on the 2nd.
    await roundAt('2026-11-02T01:59:00Z');
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toEqual([]);
    await roundAt('2026-11-02T02:00:00Z');
    await roundAt('2026-11-02T16:00:00Z');
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toEqual([
      expect.objectContaining({
        type: 'return_reminder',
        title: 'Return due today',
        message: 'Film camera is due back to Maya Chen today. Your deposit comes back once it is returned.',
      }),
      expect.objectContaining({
        type: 'return_reminder',
        title: 'Return due tomorrow',
        message: 'Film camera is due back to Maya Chen tomorrow, Nov 2.',
      }),
    ]);
    expect(await notices(t, lender.cookie, { id: reservation.id })).toEqual([]);
  });
});

describe('a request about to expire', () => {
  it('tells the lender 12 hours before it expires unanswered, once', async () => {
    const createdAt = new Date('2026-11-12T18:00:00Z');
    const { borrower, lender, reservation } = await booking('pending', '2026-11-20', '2026-11-21', createdAt);
    // 48 hours to answer: it expires on the 14th at 18:00 UTC; the lender hears at 06:00 UTC.
    await roundAt('2026-11-14T05:59:00Z');
    expect(await notices(t, lender.cookie, { id: reservation.id })).toEqual([]);
    await roundAt('2026-11-14T06:00:00Z');
    await roundAt('2026-11-14T07:00:00Z');
    expect(await notices(t, lender.cookie, { id: reservation.id })).toEqual([
      expect.objectContaining({
        type: 'request_expiring',
        title: 'Request expires soon',
        message:
          "Jordan Lee's request for Film camera (Nov 20 to Nov 21) expires Sat, Nov 14, 10:00 AM unless you approve or decline it.",
      }),
    ]);
    expect(await notices(t, borrower.cookie, { id: reservation.id })).toEqual([]);

    // Answering the request reads its reminder too (acting on a notification reads it).
    const declined = await t.post(`/api/reservations/${reservation.id}/decline`, {}, lender.cookie);
    expect(declined.statusCode, declined.body).toBe(200);
    const after = await t.get('/api/notifications', lender.cookie);
    const lastCall = (after.json().notifications as { type: string; isRead: boolean }[]).find(
      (n) => n.type === 'request_expiring',
    );
    expect(lastCall?.isRead).toBe(true);
  });
});

describe('many rounds at once (several instances, a slow round overlapping the next)', () => {
  it('sends each reminder once', async () => {
    const made = await Promise.all([
      booking('approved', '2026-11-15', '2026-11-16'),
      booking('approved', '2026-11-15', '2026-11-17'),
      booking('active', '2026-11-12', '2026-11-15'),
    ]);
    // 8 am PST on the 15th: both pickups' mornings and the return's morning.
    const sent = await Promise.all(Array.from({ length: 8 }, () => roundAt('2026-11-15T16:10:00Z')));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(3);
    for (const { borrower, reservation } of made) {
      expect(await notices(t, borrower.cookie, { id: reservation.id })).toHaveLength(1);
      expect(await sentKinds(reservation.id)).toHaveLength(1);
    }
  });
});
