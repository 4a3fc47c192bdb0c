import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { NotificationType } from '#shared/constants.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { users } from '../../db/schema/users.ts';

/** Newest first; a person's list is capped, since nobody scrolls past a few hundred alerts. */
const LIST_LIMIT = 200;

/** listForUser's query, with the placeholder `userId`. */
export function notificationsQuery(db: Db, onlyUnread: boolean) {
  const person = eq(notifications.userId, sql.placeholder('userId'));
  return (
    db
      .select()
      .from(notifications)
      // A literal, so the plan kept for everyone reads the unread rows' partial index.
      .where(onlyUnread ? and(person, sql`${notifications.isRead} = false`) : person)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(LIST_LIMIT)
  );
}

export function listForUser(db: Db, userId: string, onlyUnread = false) {
  // The header polls the unread ones in every tab: prepared once (db/prepared.ts).
  const statement = preparedOnce(db, onlyUnread ? 'notifications_unread' : 'notifications_all', (name) =>
    notificationsQuery(db, onlyUnread).prepare(name),
  );
  return statement.execute({ userId });
}

export async function markRead(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/** Marks read the person's unread notifications of these types about one reservation. */
export async function markReadAbout(
  db: Db,
  userId: string,
  reservationId: string,
  types: readonly NotificationType[],
): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.relatedReservationId, reservationId),
        inArray(notifications.type, [...types]),
        eq(notifications.isRead, false),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The language a person reads CampusLoop in; English for an unknown id. */
export async function localeOf(db: Db, userId: string): Promise<Locale> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1);
  return isLocale(row?.locale) ? row.locale : DEFAULT_LOCALE;
}

export async function insert(
  db: Db,
  values: {
    userId: string;
    type: NotificationType;
    title: string;
    message: string;
    wordingKind?: string | null;
    wordingValues?: unknown;
    relatedReservationId?: string | null;
    relatedItemId?: string | null;
  },
) {
  const [row] = await db.insert(notifications).values(values).returning();
  return row!;
}

/** New words for a notification, unread again. */
export async function rewrite(
  db: Db,
  id: string,
  words: { title: string; message: string; wordingKind: string | null; wordingValues: unknown },
) {
  await db
    .update(notifications)
    .set({ ...words, isRead: false })
    .where(eq(notifications.id, id));
}
