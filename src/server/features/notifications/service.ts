import type { NotificationType } from '#shared/constants.ts';
import type { Notification } from '#shared/schemas/notifications.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { deliveryService } from '../deliveries/service.ts';
import * as queries from './queries.ts';

// Notifications are written by the feature whose event they tell of, inside that event's transaction
// (pass the transaction as `db`), so a notice never exists without its event or the reverse.

type Row = Awaited<ReturnType<typeof queries.insert>>;

function toNotification(row: Row): Notification {
  return {
    id: row.id,
    type: row.type as NotificationType,
    title: row.title,
    message: row.message,
    relatedReservationId: row.relatedReservationId,
    relatedItemId: row.relatedItemId,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
  };
}

export const notificationService = {
  async list(db: Db, userId: string, onlyUnread = false) {
    return (await queries.listForUser(db, userId, onlyUnread)).map(toNotification);
  },

  /** Only the recipient may mark a notification; anyone else gets the same 404 as for a missing one. */
  async markRead(db: Db, userId: string, id: string) {
    if (!(await queries.markRead(db, userId, id))) throw notFound('Notification not found.');
  },

  markAllRead: (db: Db, userId: string) => queries.markAllRead(db, userId),

  /**
   * Issue 16: acting on what a notification asks for (approving or declining a request, writing the
   * review) is reading it. Called in the action's own transaction, so the two never disagree.
   */
  actedOn: (
    db: Db,
    userId: string,
    reservationId: string,
    types: readonly NotificationType[],
  ): Promise<number> => queries.markReadAbout(db, userId, reservationId, types),

  /** Stores the notification and, in the same transaction, its e-mail and push deliveries (issue 18). */
  async notify(db: Db, values: Parameters<typeof queries.insert>[1]) {
    const row = await queries.insert(db, values);
    await deliveryService.enqueue(db, row);
    return toNotification(row);
  },
};
