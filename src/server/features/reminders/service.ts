import { campusToday } from '#shared/calendar.ts';
import type { NotificationType, ReminderKind } from '#shared/constants.ts';
import { formatDayLabel } from '#shared/format.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { notificationService } from '../notifications/service.ts';
import { requestAnswerBy } from '../reservations/service.ts';
import * as queries from './queries.ts';
import { dueReminders, type Recipient, type ReminderSlot } from './schedule.ts';

// Issue 18: the reminders of a borrow, sent by a timed job (plugins/jobs.ts) from the campus clock.
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
};

interface Wording {
  title: string;
  borrowerName: string;
  lenderName: string;
}

/** What each person reads, in the product's voice: what, with whom, when, and what to bring. */
function words(
  kind: ReminderKind,
  to: Recipient,
  w: Wording,
  r: { startDate: string; endDate: string },
  answerBy: Date | null,
  timeZone: string,
): { title: string; message: string } {
  const pickup = formatDayLabel(r.startDate);
  const due = formatDayLabel(r.endDate);
  switch (kind) {
    case 'pickup_eve':
    case 'pickup_morning': {
      const when = kind === 'pickup_eve' ? `tomorrow, ${pickup}` : 'today';
      return to === 'borrower'
        ? {
            title: kind === 'pickup_eve' ? 'Pickup tomorrow' : 'Pickup today',
            message: `You pick up ${w.title} from ${w.lenderName} ${when}. Your 6-digit pickup code is in My Reservations.`,
          }
        : {
            title: kind === 'pickup_eve' ? 'Handover tomorrow' : 'Handover today',
            message: `${w.borrowerName} picks up ${w.title} ${when}. Ask for their 6-digit pickup code at the handover.`,
          };
    }
    case 'return_eve':
      return {
        title: 'Return due tomorrow',
        message: `${w.title} is due back to ${w.lenderName} tomorrow, ${due}.`,
      };
    case 'return_morning':
      return {
        title: 'Return due today',
        message: `${w.title} is due back to ${w.lenderName} today. Your deposit comes back once it is returned.`,
      };
    case 'request_expiring': {
      const at = answerBy
        ? answerBy.toLocaleString('en-US', {
            timeZone,
            weekday: 'short',
            month: 'short',
            day: 'numeric',
            hour: 'numeric',
            minute: '2-digit',
          })
        : 'soon';
      return {
        title: 'Request expires soon',
        message: `${w.borrowerName}'s request for ${w.title} (${pickup} to ${due}) expires ${at} unless you approve or decline it.`,
      };
    }
  }
}

async function sendOne(
  deps: ReminderDeps,
  reservationId: string,
  slot: ReminderSlot,
  now: Date,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
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
      const { title, message } = words(slot.kind, to, wording, row, answerBy, deps.timeZone);
      await notificationService.notify(tx, {
        userId: to === 'borrower' ? row.borrowerId : row.providerId,
        type: TYPES[slot.kind],
        title,
        message,
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
};
