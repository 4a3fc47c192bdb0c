import { overdueSince } from '#shared/booking/deposit-claims.ts';
import { campusAt, campusMidnight } from '#shared/calendar.ts';
import type { ReminderKind, ReservationStatus } from '#shared/constants.ts';

// When each reminder of a borrow is due, by the campus clock. Pure, so the hours (and the
// daylight-saving days) are tested without a database: the job asks it which reminders are due now.

/** The latest instant a Date holds: an overdue notice stays due for as long as the item is out. */
const NEVER = new Date(8.64e15);

/** The evening before a pickup or a return: 6 pm on campus. */
export const EVENING_HOUR = 18;
/** The morning of a pickup or a return: 8 am on campus. */
export const MORNING_HOUR = 8;
/** A request's lender is reminded this long before it expires unanswered. */
export const REQUEST_EXPIRING_MS = 12 * 3600_000;

export type Recipient = 'borrower' | 'lender';

export interface ReminderSlot {
  kind: ReminderKind;
  /** From when it is sent. */
  dueAt: Date;
  /** Until when it still makes sense: a reminder the job could not send in time is dropped. */
  until: Date;
  to: readonly Recipient[];
}

export interface Schedulable {
  status: ReservationStatus | string;
  startDate: string;
  endDate: string;
  createdAt: Date;
  /** A pending request's answer-by instant (the reservations service's respondBy). */
  respondBy: Date | null;
}

function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function dayAfter(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The reminders a reservation in its present status has: an approved borrow its pickup's, an active
 * one its return's, a pending request its lender's last call. Cancelled, declined, expired and
 * completed ones have none, so a reminder is never sent for them.
 */
export function reminderSlots(r: Schedulable, timeZone: string): ReminderSlot[] {
  if (r.status === 'approved') {
    return [
      {
        kind: 'pickup_eve',
        dueAt: campusAt(dayBefore(r.startDate), EVENING_HOUR, timeZone),
        until: campusMidnight(r.startDate, timeZone),
        to: ['borrower', 'lender'],
      },
      {
        kind: 'pickup_morning',
        dueAt: campusAt(r.startDate, MORNING_HOUR, timeZone),
        until: campusMidnight(dayAfter(r.startDate), timeZone),
        to: ['borrower', 'lender'],
      },
    ];
  }
  if (r.status === 'active') {
    return [
      {
        // Past its end day and still out. Sent once; it stays due while it is out.
        kind: 'overdue',
        dueAt: overdueSince(r.endDate, timeZone),
        until: NEVER,
        to: ['borrower', 'lender'],
      },
      {
        kind: 'return_eve',
        dueAt: campusAt(dayBefore(r.endDate), EVENING_HOUR, timeZone),
        until: campusMidnight(r.endDate, timeZone),
        to: ['borrower'],
      },
      {
        kind: 'return_morning',
        dueAt: campusAt(r.endDate, MORNING_HOUR, timeZone),
        until: campusMidnight(dayAfter(r.endDate), timeZone),
        to: ['borrower'],
      },
    ];
  }
  if (r.status === 'pending' && r.respondBy) {
    const dueAt = new Date(r.respondBy.getTime() - REQUEST_EXPIRING_MS);
    // A request made with less than 12 hours to answer has just told the lender; no second notice.
    if (dueAt < r.createdAt) return [];
    return [{ kind: 'request_expiring', dueAt, until: r.respondBy, to: ['lender'] }];
  }
  return [];
}

/** The reminders due at `now` (the job then sends each one not sent yet). */
export function dueReminders(r: Schedulable, timeZone: string, now: Date): ReminderSlot[] {
  return reminderSlots(r, timeZone).filter((slot) => slot.dueAt <= now && now < slot.until);
}
