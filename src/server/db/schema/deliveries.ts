import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { conversations } from './chat.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { notifications } from './notifications.ts';
import { users } from './users.ts';

// Notifications that reach people by e-mail and Web Push (decision 032).

/** A browser that said yes to "Push notifications on this device": its push service endpoint and keys. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

export const DELIVERY_CHANNELS = ['email', 'push'] as const;
export const DELIVERY_STATUSES = ['pending', 'sent', 'skipped', 'failed'] as const;

/**
 * The delivery outbox: one row per notification and channel (per subscription for push), or per
 * conversation for a batched message e-mail. Written in the notification's own transaction, so it exists
 * exactly when the notification does; the delivery round claims due rows with a lease (SKIP LOCKED),
 * sends, and marks them sent, or due again later with backoff.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    notificationId: uuid('notification_id').references(() => notifications.id, { onDelete: 'cascade' }),
    pushSubscriptionId: uuid('push_subscription_id').references(() => pushSubscriptions.id, {
      onDelete: 'cascade',
    }),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('notification_deliveries_channel_check', oneOf(t.channel, DELIVERY_CHANNELS)),
    check('notification_deliveries_status_check', oneOf(t.status, DELIVERY_STATUSES)),
    // One e-mail per notification, one push per notification and device.
    uniqueIndex('notification_deliveries_email_once')
      .on(t.notificationId)
      .where(sql`${t.channel} = 'email' and ${t.notificationId} is not null`),
    uniqueIndex('notification_deliveries_push_once')
      .on(t.notificationId, t.pushSubscriptionId)
      .where(sql`${t.channel} = 'push' and ${t.notificationId} is not null`),
    index('notification_deliveries_due_idx').on(t.dueAt).where(sql`${t.status} = 'pending'`),
    index('notification_deliveries_conversation_idx').on(t.userId, t.conversationId, t.createdAt.desc()),
  ],
);

/**
 * Keys the server signs with, made once by the first instance that needs one and shared by all (the
 * unsubscribe links' HMAC key): no setting to forget, and links keep working across restarts.
 */
export const signingKeys = pgTable('signing_keys', {
  name: text('name').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});
