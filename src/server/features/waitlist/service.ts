import { msg } from '@lingui/core/macro';
import type { CalendarAvailability } from '#shared/booking/availability.ts';
import { bookingLimitIssue, quote } from '#shared/booking/pricing.ts';
import { NO_PLATFORM_SHARE } from '#shared/booking/service-fee.ts';
import {
  entriesToTell,
  WAITLIST_ENTRIES_PER_ITEM,
  WAITLIST_HEAD_START_HOURS,
  type WaitlistStatus,
} from '#shared/booking/waitlist.ts';
import { campusToday } from '#shared/calendar.ts';
import { formatDayLabel } from '#shared/format.ts';
import type { WaitlistEntry } from '#shared/schemas/waitlist.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { sqlState, transaction } from '../../db/transaction.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';

// The waitlist (decisions 030, 050). A student of the item's campus waits for dates that are
// booked or requested, or for an item that is not offered for them now. Whatever frees dates (a cancellation, a
// decline, an expiry, a return, the owner's edit) calls `offerFreedDates` in its own transaction while
// holding the item's lock, so the telling commits with the change or not at all, and two changes of
// one item tell one after the other. Each entry is told once, then closed; the first told has the
// dates to themselves for the head start; the job's round tells the next in line after it.

export interface WaitlistDeps {
  db: Db;
  timeZone: string;
  clock: Clock;
}

/** Only the length counts for the waitlist: a quote of nothing. */
const FREE = { rentalPriceCents: 0, rentalPeriod: null, depositCents: 0 };
const HEAD_START_MS = WAITLIST_HEAD_START_HOURS * 3600_000;
/** Told entries stay on the item page this long (their dates open the Reserve dialog). */
const TOLD_SHOWN_MS = 7 * 24 * 3600_000;

function toEntry(row: queries.EntryRow): WaitlistEntry {
  return {
    id: row.id,
    itemId: row.itemId,
    startDate: row.startDate,
    endDate: row.endDate,
    status: row.status as WaitlistStatus,
    notifiedAt: row.notifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Deleted, hidden by a moderator, or of a suspended owner: nobody waits for it (a 404, as to borrowers). */
function offered(item: queries.WaitlistItem | undefined): item is queries.WaitlistItem {
  return Boolean(item && !item.deletedAt && !item.hiddenAt && !item.ownerSuspendedAt);
}

/** What a borrower could book now (the Reserve dialog's rule), with the dates others were just told of. */
async function calendarOf(db: Db, item: queries.WaitlistItem, today: string, now: Date) {
  const [booked, held] = await Promise.all([
    queries.takenRanges(db, item.id, today),
    queries.heldRanges(db, item.id, new Date(now.getTime() - HEAD_START_MS), today),
  ]);
  const calendar: CalendarAvailability = {
    today,
    availableFrom: item.availableFrom,
    availableUntil: item.availableUntil,
    availableDays: item.availableDays,
    booked: item.isAvailable ? booked : [{ startDate: today, endDate: '9999-12-31' }],
  };
  return { calendar, held };
}

export const waitlistService = {
  /** The signed-in person's entries for an item: waiting ones, and ones told in the last week. */
  async listMine(deps: WaitlistDeps, userId: string, itemId: string): Promise<WaitlistEntry[]> {
    const now = deps.clock.now();
    const today = campusToday(deps.timeZone, now).date;
    const rows = await queries.listForUser(
      deps.db,
      userId,
      itemId,
      today,
      new Date(now.getTime() - TOLD_SHOWN_MS),
    );
    return rows.map(toEntry);
  },

  /** "Notify me when available": 409 when the dates can be reserved now, or are already waited for. */
  async join(
    deps: WaitlistDeps,
    student: { id: string; campus: string },
    itemId: string,
    input: { startDate: string; endDate: string },
  ): Promise<WaitlistEntry> {
    const item = await queries.findItem(deps.db, itemId);
    if (!offered(item)) throw notFound(msg`Item not found.`);
    if (item.userId === student.id) throw forbidden(msg`You cannot join the waitlist of your own item.`);
    // The handover is in person on the lender's campus; reserving from elsewhere asks first,
    // but being told of free dates is for the campus's own students.
    if (item.campus !== student.campus)
      throw forbidden(msg`Only students of this item's campus can join its waitlist.`);
    const now = deps.clock.now();
    const today = campusToday(deps.timeZone, now).date;
    const { startDate, endDate } = input;
    if (startDate < today) {
      const message = msg`The start date cannot be in the past.`;
      throw badRequest(message, [{ path: 'startDate', message }]);
    }
    if (endDate < startDate) {
      const message = msg`The end date cannot be before the start date.`;
      throw badRequest(message, [{ path: 'endDate', message }]);
    }
    // Dates nobody could book are dates nobody can be told of (the booking length limit).
    const tooLong = bookingLimitIssue(quote(FREE, startDate, endDate, NO_PLATFORM_SHARE));
    if (tooLong) throw badRequest(tooLong, [{ path: 'endDate', message: tooLong }]);
    try {
      const row = await transaction(deps.db, async (tx) => {
        // Under the item's lock: a cancellation either committed before (the dates are free: 409) or
        // comes after and finds this entry.
        await queries.lockItemForWaitlist(tx, itemId);
        const current = await queries.findItem(tx, itemId);
        if (!offered(current)) throw notFound(msg`Item not found.`);
        const { calendar, held } = await calendarOf(tx, current, today, now);
        if (entriesToTell([{ id: 'new', startDate, endDate }], calendar, held).length > 0) {
          throw conflict(msg`Those dates are free: you can reserve them now.`, 'DATES_AVAILABLE');
        }
        if ((await queries.countWaiting(tx, itemId, student.id)) >= WAITLIST_ENTRIES_PER_ITEM) {
          const most = WAITLIST_ENTRIES_PER_ITEM;
          throw conflict(
            msg`You are waiting for ${most} sets of dates of this item already. Leave one to add another.`,
            'WAITLIST_FULL',
          );
        }
        return queries.insertEntry(tx, { itemId, userId: student.id, startDate, endDate });
      });
      return toEntry(row);
    } catch (error) {
      if (sqlState(error) === '23505') {
        throw conflict(msg`You are already on the waitlist for these dates.`, 'ALREADY_WAITING');
      }
      throw error;
    }
  },

  /** Leave the waitlist (or dismiss a told entry): one's own only; anyone else's is a 404. */
  async leave(db: Db, userId: string, id: string): Promise<void> {
    if (!(await queries.deleteOwn(db, userId, id))) throw notFound(msg`Waitlist entry not found.`);
  },

  /**
   * Tells the students whose dates are now free, in joining order, and closes their entries. Called in
   * the transaction of the change that may have freed dates, after it, holding the item's lock. Answers
   * how many were told.
   */
  async offerFreedDates(
    tx: Db,
    { itemId, timeZone, now = new Date() }: { itemId: string; timeZone: string; now?: Date },
  ): Promise<number> {
    const item = await queries.findItem(tx, itemId);
    if (!offered(item) || !item.isAvailable) return 0;
    const today = campusToday(timeZone, now).date;
    const waiting = await queries.waitingFor(tx, itemId, today);
    if (!waiting.length) return 0;
    const { calendar, held } = await calendarOf(tx, item, today, now);
    const toTell = entriesToTell(waiting, calendar, held);
    if (!toTell.length) return 0;
    const closed = new Set((await queries.markNotified(tx, toTell, now)).map((row) => row.id));
    const hours = WAITLIST_HEAD_START_HOURS;
    let told = 0;
    for (const entry of waiting) {
      if (!closed.has(entry.id)) continue;
      const title = item.title;
      await notificationService.notify(tx, {
        userId: entry.userId,
        type: 'waitlist_available',
        text: () => {
          const start = formatDayLabel(entry.startDate);
          const end = formatDayLabel(entry.endDate);
          return {
            title: msg`Your dates are free`,
            message:
              entry.startDate === entry.endDate
                ? msg`${title} is free for ${start}, the dates you waited for. Reserve it now: nobody else on the waitlist for them is told for ${hours} hours.`
                : msg`${title} is free for ${start} to ${end}, the dates you waited for. Reserve it now: nobody else on the waitlist for them is told for ${hours} hours.`,
          };
        },
        relatedItemId: item.id,
      });
      told++;
    }
    return told;
  },

  /**
   * The job's round: drops entries whose dates have begun, then looks at every item someone waits for
   * (the next in line once a head start is over, or a change no caller announced, such as a
   * moderator's unhide). Answers what it did.
   */
  async runRound(deps: WaitlistDeps): Promise<{ dropped: number; told: number }> {
    const now = deps.clock.now();
    const dropped = await queries.dropPast(deps.db, campusToday(deps.timeZone, now).date);
    let told = 0;
    for (const itemId of await queries.itemsWithWaiting(deps.db)) {
      told += await transaction(deps.db, async (tx) => {
        await queries.lockItemForWaitlist(tx, itemId);
        return waitlistService.offerFreedDates(tx, { itemId, timeZone: deps.timeZone, now });
      });
    }
    return { dropped, told };
  },
};
