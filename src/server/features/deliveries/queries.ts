import { and, eq, type SQL, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, isLocale } from '#shared/i18n.ts';
import type { Db } from '../../db/client.ts';
import { conversations, messages } from '../../db/schema/chat.ts';
import { notificationDeliveries, pushSubscriptions, signingKeys } from '../../db/schema/deliveries.ts';
import { items } from '../../db/schema/items.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { users } from '../../db/schema/users.ts';

// The only place with queries of the delivery outbox, push subscriptions and signing keys.

export type Delivery = typeof notificationDeliveries.$inferSelect;

/**
 * A notification's e-mail (when wanted, and when its type is `emailed` on its own) and a push per
 * subscribed device (when wanted), as the insert of a statement that has made `notice` (its `id` and
 * `user_id`) and read `recipient` (its `email` and `push` wishes) before it.
 */
export function deliveriesOfNotice({ emailed }: { emailed: boolean }): SQL {
  return sql`
    insert into notification_deliveries (user_id, channel, notification_id, push_subscription_id)
    select n.user_id, 'email', n.id, null::uuid from notice n, recipient r
    where r.email and ${emailed}::boolean
    union all
    select n.user_id, 'push', n.id, s.id from notice n
    join recipient r on r.push
    join push_subscriptions s on s.user_id = n.user_id
    on conflict do nothing`;
}

/**
 * Message e-mails: for each person and conversation with a message unread since `olderThan`
 * and newer than the last message e-mail of that conversation, one delivery, unless one was made in the
 * last `batchMs`. Answers how many were made.
 */
export async function enqueueMessageEmails(db: Db, now: Date, unreadMs: number, batchMs: number) {
  const olderThan = new Date(now.getTime() - unreadMs);
  const batchSince = new Date(now.getTime() - batchMs);
  const result = await db.execute(sql`
    with waiting as (
      select case when m.sender_id = c.buyer_id then c.seller_id else c.buyer_id end as user_id,
             c.id as conversation_id, max(m.created_at) as newest
      from messages m join conversations c on c.id = m.conversation_id
      where m.is_read = false and m.created_at <= ${olderThan.toISOString()}::timestamptz
        -- Older unread messages had their e-mail; each round reads only the last day's.
        and m.created_at > ${olderThan.toISOString()}::timestamptz - interval '1 day'
      group by 1, 2
    )
    insert into notification_deliveries (user_id, channel, conversation_id, due_at, created_at)
    select w.user_id, 'email', w.conversation_id, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from waiting w
    where not exists (
      select 1 from notification_deliveries d
      where d.user_id = w.user_id and d.conversation_id = w.conversation_id and d.channel = 'email'
        and (d.created_at > ${batchSince.toISOString()}::timestamptz or d.created_at > w.newest)
    )
    returning id`);
  return result.rows.length;
}

/**
 * Message pushes: for each device of a person with a message unread in a conversation newer
 * than the last push about that conversation to that device, one push (the newest message tells it).
 * The push's created_at is that newest message's time: what it covers, so the next is for a newer one.
 */
export async function enqueueMessagePushes(db: Db, now: Date) {
  const at = now.toISOString();
  const result = await db.execute(sql`
    with waiting as (
      select case when m.sender_id = c.buyer_id then c.seller_id else c.buyer_id end as user_id,
             c.id as conversation_id, max(m.created_at) as newest
      from messages m join conversations c on c.id = m.conversation_id
      where m.is_read = false and m.created_at > ${at}::timestamptz - interval '1 day'
      group by 1, 2
    )
    insert into notification_deliveries (user_id, channel, conversation_id, push_subscription_id, due_at, created_at)
    select w.user_id, 'push', w.conversation_id, ps.id, ${at}::timestamptz, w.newest
    from waiting w join push_subscriptions ps on ps.user_id = w.user_id
    where not exists (
      select 1 from notification_deliveries d
      where d.push_subscription_id = ps.id and d.conversation_id = w.conversation_id and d.channel = 'push'
        and d.created_at >= w.newest
    )
    returning id`);
  return result.rows.length;
}

/**
 * Takes up to `limit` due deliveries for `leaseMs`: one statement, rows locked with SKIP LOCKED, so two
 * rounds at once (two instances) never take the same row; a taker that died lets its lease run out.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<Delivery[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const result = await db.execute(sql`
    update notification_deliveries set locked_until = ${until}::timestamptz, attempts = attempts + 1
    where id in (
      select id from notification_deliveries
      where status = 'pending' and due_at <= ${at}::timestamptz
        and (locked_until is null or locked_until <= ${at}::timestamptz)
      order by due_at limit ${limit}
      for update skip locked
    )
    returning id`);
  const ids = (result.rows as { id: string }[]).map((r) => r.id);
  if (ids.length === 0) return [];
  return db
    .select()
    .from(notificationDeliveries)
    .where(
      sql`${notificationDeliveries.id} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
}

export async function finish(
  db: Db,
  id: string,
  status: 'sent' | 'skipped' | 'failed',
  now: Date,
  error?: string,
) {
  await db
    .update(notificationDeliveries)
    .set({ status, sentAt: status === 'sent' ? now : null, lockedUntil: null, lastError: error ?? null })
    .where(eq(notificationDeliveries.id, id));
}

/**
 * What waits to be sent, per channel: how many, and how long the longest-due one has waited past its
 * time (0 when none is due). Reads the pending rows' partial index only: cheap enough for every scrape.
 */
export async function backlog(db: Db, now: Date) {
  const result = await db.execute(sql`
    select channel, count(*)::int as pending,
      coalesce(extract(epoch from (${now.toISOString()}::timestamptz - min(due_at)
        filter (where due_at <= ${now.toISOString()}::timestamptz))), 0)::float8 as overdue_seconds
    from notification_deliveries where status = 'pending'
    group by channel`);
  return result.rows as { channel: string; pending: number; overdue_seconds: number }[];
}

/**
 * Forgets finished deliveries: sent or skipped ones made before `doneBefore`, failed ones before
 * `failedBefore` (kept longer: what an operator looks into). At most `limit` rows a call, so a large
 * backlog is removed over several rounds, not in one long statement. Pending rows are never touched.
 */
export async function deleteFinished(db: Db, doneBefore: Date, failedBefore: Date, limit: number) {
  const result = await db.execute(sql`
    delete from notification_deliveries where id in (
      select id from notification_deliveries
      where (status in ('sent', 'skipped') and created_at < ${doneBefore.toISOString()}::timestamptz)
         or (status = 'failed' and created_at < ${failedBefore.toISOString()}::timestamptz)
      limit ${limit}
    )
    returning id`);
  return result.rows.length;
}

export async function retryLater(db: Db, id: string, dueAt: Date, error: string) {
  await db
    .update(notificationDeliveries)
    .set({ dueAt, lockedUntil: null, lastError: error.slice(0, 500) })
    .where(eq(notificationDeliveries.id, id));
}

export async function findNotification(db: Db, id: string) {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id)).limit(1);
  return row;
}

export async function findRecipient(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      deletedAt: users.deletedAt,
      locale: users.locale,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  // The language their e-mails are written in.
  return row && { ...row, locale: isLocale(row.locale) ? row.locale : DEFAULT_LOCALE };
}

/** The unread messages to `userId` in a conversation, oldest first, with the item's title. */
export async function unreadMessagesTo(db: Db, userId: string, conversationId: string) {
  return db
    .select({
      content: messages.content,
      createdAt: messages.createdAt,
      senderName: users.fullName,
      itemTitle: items.title,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(users, eq(users.id, messages.senderId))
    .innerJoin(items, eq(items.id, conversations.itemId))
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.isRead, false),
        sql`${messages.senderId} <> ${userId}`,
        sql`${userId} in (${conversations.buyerId}, ${conversations.sellerId})`,
      ),
    )
    .orderBy(messages.seq);
}

export async function findSubscription(db: Db, id: string) {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
  return row;
}

/** A device subscribes again with the same endpoint after a sign-in as someone else: it is theirs now. */
export async function upsertSubscription(
  db: Db,
  values: { userId: string; endpoint: string; p256dh: string; auth: string },
) {
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: values.userId, p256dh: values.p256dh, auth: values.auth },
    });
}

export async function deleteSubscription(
  db: Db,
  where: { id: string } | { userId: string; endpoint: string },
) {
  const rows = await db
    .delete(pushSubscriptions)
    .where(
      'id' in where
        ? eq(pushSubscriptions.id, where.id)
        : and(eq(pushSubscriptions.userId, where.userId), eq(pushSubscriptions.endpoint, where.endpoint)),
    )
    .returning({ id: pushSubscriptions.id });
  return rows.length;
}

export async function countSubscriptions(db: Db, userId: string, endpoint?: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pushSubscriptions)
    .where(
      endpoint
        ? and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint))
        : eq(pushSubscriptions.userId, userId),
    );
  return row?.count ?? 0;
}

/** The named key, made by whichever instance asks first. */
export async function signingKey(db: Db, name: string, fresh: string): Promise<string> {
  await db.insert(signingKeys).values({ name, secret: fresh }).onConflictDoNothing();
  const [row] = await db
    .select({ secret: signingKeys.secret })
    .from(signingKeys)
    .where(eq(signingKeys.name, name));
  return row!.secret;
}

/** A notification's e-mail, not sent yet, goes at `dueAt` instead (a batch's window). */
export async function postponeEmail(db: Db, notificationId: string, dueAt: Date) {
  await db
    .update(notificationDeliveries)
    .set({ dueAt })
    .where(
      and(
        eq(notificationDeliveries.notificationId, notificationId),
        eq(notificationDeliveries.channel, 'email'),
        eq(notificationDeliveries.status, 'pending'),
      ),
    );
}
