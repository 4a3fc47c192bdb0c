import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
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

/** A notification's words in one language, and the wording that wrote them (wordings.ts), if one did. */
export type Written = { title: string; message: string; wordingKind: string | null; wordingValues: unknown };

/**
 * Stores a notification in its recipient's language, with its deliveries, in one statement: it runs
 * inside its event's transaction, where each round trip waits its turn on a busy server. `recipient`
 * selects the person's `user_id`, `locale` and wishes (notification-preferences), `deliveries` inserts
 * what those wishes ask for (deliveries); `words` has the notification in every language, and the
 * recipient's is stored (the default language's for one the product does not speak). Undefined when
 * the recipient does not exist.
 */
export async function insertForRecipient(
  db: Db,
  values: {
    type: NotificationType;
    relatedReservationId?: string | null;
    relatedItemId?: string | null;
    words: Record<Locale, Written>;
  },
  recipient: SQL,
  deliveries: SQL,
) {
  const words = JSON.stringify(values.words);
  const result = await db.execute<{
    id: string;
    user_id: string;
    title: string;
    message: string;
    wording_kind: string | null;
    wording_values: unknown;
    is_read: boolean;
    created_at: string | Date;
  }>(sql`
    with recipient as (${recipient}),
    notice as (
      insert into ${notifications} (user_id, type, title, message, wording_kind, wording_values,
        related_reservation_id, related_item_id)
      select r.user_id, ${values.type}, w ->> 'title', w ->> 'message', w ->> 'wordingKind',
        nullif(w -> 'wordingValues', 'null'::jsonb), ${values.relatedReservationId ?? null}::uuid,
        ${values.relatedItemId ?? null}::uuid
      from recipient r,
        lateral (select coalesce(${words}::jsonb -> r.locale, ${words}::jsonb -> ${DEFAULT_LOCALE}::text) as w) written
      returning id, user_id, title, message, wording_kind, wording_values, is_read, created_at
    ),
    delivered as (${deliveries})
    select * from notice`);
  const row = result.rows[0];
  return (
    row && {
      id: row.id,
      userId: row.user_id,
      type: values.type,
      title: row.title,
      message: row.message,
      wordingKind: row.wording_kind,
      wordingValues: row.wording_values,
      relatedReservationId: values.relatedReservationId ?? null,
      relatedItemId: values.relatedItemId ?? null,
      isRead: row.is_read,
      createdAt: new Date(row.created_at),
    }
  );
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
