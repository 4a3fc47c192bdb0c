import { msg } from '@lingui/core/macro';
import { requestAnswerBy } from '#shared/booking/booking-deadlines.ts';
import { OVERDUE_CLAIM_AFTER_HOURS } from '#shared/booking/deposit-claims.ts';
import { campusToday } from '#shared/calendar.ts';
import type { NotificationType, ReminderKind } from '#shared/constants.ts';
import { formatDayLabel, intlLocale } from '#shared/format.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { only, wording } from '../../wordings.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';
import { dueReminders, REQUEST_EXPIRING_MS, type Recipient, type ReminderSlot } from './schedule.ts';

// The reminders of a borrow, sent by a timed job (plugins/jobs.ts) from the campus clock.
// Each is sent at most once (a row per reservation and kind, written with its notifications in one
// transaction), only while the reservation is still in the status it is for (checked under the row's
// lock, so a cancellation in the same instant wins), and only while it still makes sense (a server that
// was down all evening does not send 'pickup tomorrow' the next afternoon).

export interface ReminderDeps {
  db: Db;
  clock: Clock;
  timeZone: string;
  /** RESERVATION_EXPIRY_HOURS: when a pending request expires unanswered. */
  expiryHours: number;
}

const TYPES: Record<ReminderKind, NotificationType> = {
  pickup_eve: 'pickup_reminder',
  pickup_morning: 'pickup_reminder',
  return_eve: 'return_reminder',
  return_morning: 'return_reminder',
  request_expiring: 'request_expiring',
  overdue: 'overdue',
};

interface Wording {
  title: string;
  borrowerName: string;
  lenderName: string;
}

/**
 * What each person reads, in the product's voice: what, with whom, when, and what to bring. Called in
 * the recipient's language (the notice's text), so the days and times are written in it.
 */
const words = wording(
  'reminders.words',
  (
    kind: ReminderKind,
    to: Recipient,
    w: Wording,
    r: { startDate: string; endDate: string },
    answerBy: Date | null,
    timeZone: string,
  ): NoticeText => {
    const pickup = formatDayLabel(r.startDate);
    const due = formatDayLabel(r.endDate);
    const { title: item, borrowerName: borrower, lenderName: lender } = w;
    const hours = OVERDUE_CLAIM_AFTER_HOURS;
    switch (kind) {
      case 'pickup_eve':
        return to === 'borrower'
          ? {
              title: msg`Pickup tomorrow`,
              message: msg`You pick up ${item} from ${lender} tomorrow, ${pickup}. Your 6-digit pickup code is in My Reservations.`,
            }
          : {
              title: msg`Handover tomorrow`,
              message: msg`${borrower} picks up ${item} tomorrow, ${pickup}. Ask for their 6-digit pickup code at the handover.`,
            };
      case 'pickup_morning':
        return to === 'borrower'
          ? {
              title: msg`Pickup today`,
              message: msg`You pick up ${item} from ${lender} today. Your 6-digit pickup code is in My Reservations.`,
            }
          : {
              title: msg`Handover today`,
              message: msg`${borrower} picks up ${item} today. Ask for their 6-digit pickup code at the handover.`,
            };
      case 'return_eve':
        return {
          title: msg`Return due tomorrow`,
          message: msg`${item} is due back to ${lender} tomorrow, ${due}.`,
        };
      case 'return_morning':
        return {
          title: msg`Return due today`,
          message: msg`${item} is due back to ${lender} today. Your deposit comes back once it is returned.`,
        };
      case 'overdue':
        // Told once, both of them, what it means for each.
        return to === 'borrower'
          ? {
              title: msg`Item overdue`,
              message: msg`${item} was due back to ${lender} on ${due}. Please return it now: after ${hours} hours overdue ${lender} may claim from your deposit, and you cannot request anything new until it is back.`,
            }
          : {
              title: msg`Item overdue`,
              message: msg`${borrower} has not returned ${item}, due back on ${due}. If it is not back within ${hours} hours you can report a problem and claim from the deposit in My Reservations.`,
            };
      case 'request_expiring': {
        const title = msg`Request expires soon`;
        if (!answerBy) {
          return {
            title,
            message: msg`${borrower}'s request for ${item} (${pickup} to ${due}) expires soon unless you approve or decline it.`,
          };
        }
        const at = answerBy.toLocaleString(intlLocale(), {
          timeZone,
          weekday: 'short',
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
        });
        return {
          title,
          message: msg`${borrower}'s request for ${item} (${pickup} to ${due}) expires ${at} unless you approve or decline it.`,
        };
      }
    }
  },
  (kind, to, w, r, ...rest) => [
    kind,
    to,
    only(w, 'title', 'borrowerName', 'lenderName'),
    only(r, 'startDate', 'endDate'),
    ...rest,
  ],
);

async function sendOne(
  deps: ReminderDeps,
  reservationId: string,
  slot: ReminderSlot,
  now: Date,
): Promise<boolean> {
  return transaction(deps.db, async (tx) => {
    const row = await queries.lockForReminder(tx, reservationId);
    if (!row) return false;
    // Still due under the lock: a reservation cancelled (or picked up) meanwhile has no such reminder.
    const answerBy = row.status === 'pending' ? requestAnswerBy(row, deps.expiryHours, deps.timeZone) : null;
    const still = dueReminders({ ...row, respondBy: answerBy }, deps.timeZone, now).some(
      (s) => s.kind === slot.kind,
    );
    if (!still) return false;
    if (!(await queries.recordSent(tx, reservationId, slot.kind, now))) return false;
    const wording = await queries.findWording(tx, reservationId);
    if (!wording) return false;
    for (const to of slot.to) {
      await notificationService.notify(tx, {
        userId: to === 'borrower' ? row.borrowerId : row.providerId,
        type: TYPES[slot.kind],
        text: () => words(slot.kind, to, wording, row, answerBy, deps.timeZone),
        relatedReservationId: row.id,
        relatedItemId: row.itemId,
      });
    }
    return true;
  });
}

export const reminderService = {
  /** One round: sends every reminder due now and not sent yet; answers how many were sent. */
  async sendDue(deps: ReminderDeps): Promise<number> {
    const now = deps.clock.now();
    const today = campusToday(deps.timeZone, now).date;
    const tomorrow = campusToday(deps.timeZone, new Date(now.getTime() + 36 * 3600_000)).date;
    const candidates = await queries.findCandidates(deps.db, today, tomorrow);
    let sent = 0;
    for (const candidate of candidates) {
      const answerBy =
        candidate.status === 'pending' ? requestAnswerBy(candidate, deps.expiryHours, deps.timeZone) : null;
      for (const slot of dueReminders({ ...candidate, respondBy: answerBy }, deps.timeZone, now)) {
        if (candidate.sent.includes(slot.kind)) continue;
        if (await sendOne(deps, candidate.id, slot, now)) sent++;
      }
    }
    return sent;
  },

  sentFor: queries.sentFor,

  /** How long before a pending request ends its lender is reminded (a request for more days's too). */
  answerReminderMs: REQUEST_EXPIRING_MS,

  /** The booking's last day moved (an approved extension): the return reminders go out for the new one. */
  forgetReturnReminders: queries.forgetReturnReminders,
};
