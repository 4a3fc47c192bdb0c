import { msg } from '@lingui/core/macro';
import type { NotificationType } from '#shared/constants.ts';
import { LOCALES, type Locale } from '#shared/i18n.ts';
import { kindOfNotification } from '#shared/notification-kinds.ts';
import type { Notification } from '#shared/schemas/notifications.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { i18n, inLocale, type NoticeText } from '../../i18n.ts';
import { rewritten, storedWordingOf } from '../../wordings.ts';
import { deliveryService } from '../deliveries/service.ts';
import { preferenceService } from '../notification-preferences/service.ts';
import * as queries from './queries.ts';

// Notifications are written by the feature whose event they tell of, inside that event's transaction
// (pass the transaction as `db`), so a notice never exists without its event or the reverse.

type Row = Awaited<ReturnType<typeof queries.listForUser>>[number];

export type { NoticeText };

export type NoticeValues = Omit<Parameters<typeof queries.insertForRecipient>[1], 'words'> & {
  /** The recipient. */
  userId: string;
  /**
   * msg`…` for the title and the message; called once in each language the product speaks, with that
   * language active, before the recipient's is known (the statement that stores it reads it).
   */
  text: () => NoticeText;
};

/**
 * A notification's title and message in `locale`: written again from its wording (wordings.ts) when it
 * has one, else (rows from before, words no wording made) as stored.
 */
function wordsIn(row: Row, locale: Locale | undefined): { title: string; message: string } {
  if (locale && row.wordingKind) {
    const again = inLocale(locale, () => {
      const text = rewritten<NoticeText>(row.wordingKind, row.wordingValues);
      return text && { title: i18n._(text.title), message: i18n._(text.message) };
    });
    if (again) return again;
  }
  return { title: row.title, message: row.message };
}

/** `locale` is the reader's; without one, the words as stored (in the recipient's, when it was sent). */
function toNotification(row: Row, locale?: Locale): Notification {
  return {
    id: row.id,
    type: row.type as NotificationType,
    ...wordsIn(row, locale),
    relatedReservationId: row.relatedReservationId,
    relatedItemId: row.relatedItemId,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A notification's words in the recipient's language, and the wording that wrote them. */
function writtenIn(locale: Locale, text: () => NoticeText) {
  return inLocale(locale, () => {
    const words = text();
    const wording = storedWordingOf(words);
    return {
      title: i18n._(words.title),
      message: i18n._(words.message),
      wordingKind: wording?.kind ?? null,
      wordingValues: wording?.values ?? null,
    };
  });
}

export const notificationService = {
  /** A person's notifications, written in `locale` (the reader's language); as stored without one. */
  async list(db: Db, userId: string, onlyUnread = false, locale?: Locale) {
    return (await queries.listForUser(db, userId, onlyUnread)).map((row) => toNotification(row, locale));
  },

  /** Only the recipient may mark a notification; anyone else gets the same 404 as for a missing one. */
  async markRead(db: Db, userId: string, id: string) {
    if (!(await queries.markRead(db, userId, id))) throw notFound(msg`Notification not found.`);
  },

  markAllRead: (db: Db, userId: string) => queries.markAllRead(db, userId),

  /**
   * Acting on what a notification asks for (approving or declining a request, writing the
   * review) is reading it. Called in the action's own transaction, so the two never disagree.
   */
  actedOn: (
    db: Db,
    userId: string,
    reservationId: string,
    types: readonly NotificationType[],
  ): Promise<number> => queries.markReadAbout(db, userId, reservationId, types),

  /**
   * Stores the notification and its e-mail and push deliveries, in one statement of the event's
   * transaction. Written in the recipient's language; its wording is kept too, when a wording made
   * `text`'s answer (wordings.ts), so the notification is written again in whatever language it is
   * later read in. `text` gives the title and message as `msg` descriptors; it is called with each
   * language active, so what it formats inside (a day, an amount, format.ts) is written in it too.
   */
  async notify(db: Db, values: NoticeValues) {
    const { text, userId, ...rest } = values;
    const words = Object.fromEntries(LOCALES.map((locale) => [locale, writtenIn(locale, text)])) as Record<
      Locale,
      queries.Written
    >;
    const row = await queries.insertForRecipient(
      db,
      { ...rest, words },
      preferenceService.recipient(userId, kindOfNotification(values.type)),
      deliveryService.forNotification(values.type),
    );
    // The event's own transaction names its recipient: a missing one is a bug, not a request's fault.
    if (!row) throw new Error(`notification for an unknown person ${userId}`);
    return toNotification(row);
  },

  /**
   * Writes a notification's words again (a batch that gathered one more listing): unread again, and its
   * e-mail, not sent yet, says the new words when it goes. No new push: the first one told of the batch.
   */
  async revise(db: Db, values: { id: string; userId: string; text: () => NoticeText }) {
    const written = writtenIn(await queries.localeOf(db, values.userId), values.text);
    await queries.rewrite(db, values.id, written);
  },
};
