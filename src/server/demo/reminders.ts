import { randomInt } from 'node:crypto';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { addDays } from '#shared/booking/availability.ts';
import { requestAnswerBy } from '#shared/booking/booking-deadlines.ts';
import { campusAt, campusToday } from '#shared/calendar.ts';
import type { NotificationType } from '#shared/constants.ts';
import { formatDayLabel } from '#shared/format.ts';
import { fixedClock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { items } from '../db/schema/items.ts';
import { notifications } from '../db/schema/notifications.ts';
import { reservations } from '../db/schema/reservations.ts';
import { users } from '../db/schema/users.ts';
import { reminderSlots } from '../features/reminders/schedule.ts';
import { reminderService } from '../features/reminders/service.ts';

// The demo campus shows every reminder in someone's notifications. Diego (a README
// account) lends his helmet to Noah, who picks it up today; borrows Priya's course reader, which is
// due back today (tomorrow when the demo is loaded late in the evening: a borrow overdue within hours
// would stop Diego borrowing anything, in the demo and in the journeys that run on it); and has
// Aisha's request for the helmet about to expire unanswered. The reminders are sent by the reminder
// job itself, on a clock set to each one's hour (yesterday evening, this morning, twelve hours before
// the request expires: whichever have passed), and dated then, so a newcomer reads what a student
// would have read. Only free items: nothing is held on a card. One journey
// (tests/e2e/extensions.spec.ts) follows Diego's return reminder and extends the reader by two days;
// no other touches these three bookings or this helmet and reader.

/** From this campus hour on, the course reader is due back tomorrow rather than today. */
const LATE_EVENING_HOUR = 20;

const REMINDER_TYPES: NotificationType[] = ['pickup_reminder', 'return_reminder', 'request_expiring'];

/**
 * The day Diego's course reader is due back: today, or tomorrow once it is late in the campus
 * evening, so it is never overdue within four hours of the demo's load.
 */
export function readerDueDay(now: Date, timeZone: string): string {
  const today = campusToday(timeZone, now).date;
  return now < campusAt(today, LATE_EVENING_HOUR, timeZone) ? today : addDays(today, 1);
}

async function idOfUser(db: Db, email: string): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`the demo has no ${email}`);
  return row.id;
}

async function itemOf(db: Db, ownerId: string, title: string): Promise<string> {
  const [row] = await db
    .select({ id: items.id })
    .from(items)
    .where(and(eq(items.userId, ownerId), eq(items.title, title)));
  if (!row) throw new Error(`the demo has no item '${title}'`);
  return row.id;
}

export async function seedCurrentBorrows(
  db: Db,
  opts: { timeZone: string; expiryHours: number; now: Date },
): Promise<{ reminders: number }> {
  const { timeZone, expiryHours, now } = opts;
  const hour = 3600_000;
  const today = campusToday(timeZone, now).date;
  const diego = await idOfUser(db, 'diego.ramirez@stanford.edu');
  const priya = await idOfUser(db, 'priya.patel@stanford.edu');
  const noah = await idOfUser(db, 'noah.williams@stanford.edu');
  const aisha = await idOfUser(db, 'aisha.okafor@stanford.edu');
  const helmet = await itemOf(db, diego, 'Road bike helmet (M)');
  const reader = await itemOf(db, priya, 'Psychology 1 reader and notes');
  const readerDue = readerDueDay(now, timeZone);
  const readerPickedUp = campusAt(addDays(readerDue, -4), 11, timeZone);

  // A request answered within its window is still pending; it expires six hours from now.
  const requestedAt = new Date(now.getTime() - Math.max(expiryHours - 6, 1) * hour);
  const rows = await db
    .insert(reservations)
    .values([
      {
        // Approved the day before yesterday; picked up today.
        itemId: helmet,
        borrowerId: noah,
        providerId: diego,
        startDate: today,
        endDate: addDays(today, 2),
        status: 'approved',
        pickupCode: String(randomInt(1_000_000)).padStart(6, '0'),
        approvedAt: new Date(now.getTime() - 46 * hour),
        createdAt: new Date(now.getTime() - 48 * hour),
      },
      {
        // Picked up four days before it is due back.
        itemId: reader,
        borrowerId: diego,
        providerId: priya,
        startDate: addDays(readerDue, -4),
        endDate: readerDue,
        status: 'active',
        pickedUpAt: readerPickedUp,
        approvedAt: new Date(readerPickedUp.getTime() - 24 * hour),
        createdAt: new Date(readerPickedUp.getTime() - 48 * hour),
      },
      {
        itemId: helmet,
        borrowerId: aisha,
        providerId: diego,
        startDate: addDays(today, 4),
        endDate: addDays(today, 5),
        status: 'pending',
        createdAt: requestedAt,
      },
    ])
    .returning();

  // Diego was told of Aisha's request when she sent it (the reservations service's wording): it waits
  // in his Pending tab, where he can still approve it.
  const request = rows.find((row) => row.status === 'pending')!;
  await db.insert(notifications).values({
    userId: diego,
    type: 'reservation_request',
    title: 'New reservation request',
    message: `Aisha Okafor wants to borrow Road bike helmet (M) from ${formatDayLabel(request.startDate)} to ${formatDayLabel(request.endDate)}.`,
    relatedReservationId: request.id,
    relatedItemId: helmet,
    createdAt: requestedAt,
  });

  // Every hour at which one of them had a reminder due, oldest first.
  const hours = new Set<number>();
  for (const row of rows) {
    const respondBy = row.status === 'pending' ? requestAnswerBy(row, expiryHours, timeZone) : null;
    for (const slot of reminderSlots({ ...row, respondBy }, timeZone)) {
      if (slot.dueAt <= now) hours.add(slot.dueAt.getTime());
    }
  }
  const ids = rows.map((row) => row.id);
  let sent = 0;
  for (const at of [...hours].sort((a, b) => a - b)) {
    const clock = fixedClock(new Date(at));
    sent += await reminderService.sendDue({ db, clock, timeZone, expiryHours });
    // Dated when the job would have sent them, not when the demo was loaded.
    await db
      .update(notifications)
      .set({ createdAt: new Date(at) })
      .where(
        and(
          inArray(notifications.relatedReservationId, ids),
          inArray(notifications.type, REMINDER_TYPES),
          // Just written (at the real time, later than any reminder's hour); earlier rounds' are dated.
          gt(notifications.createdAt, new Date(at)),
        ),
      );
  }
  return { reminders: sent };
}
