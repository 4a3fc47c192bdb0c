import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '#shared/constants.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /**
     * How the title and message were written (src/server/wordings.ts): written again in the reader's
     * language when read. Null on rows from before (and on words no wording made): their text is read.
     */
    wordingKind: text('wording_kind'),
    wordingValues: jsonb('wording_values'),
    relatedReservationId: uuid('related_reservation_id').references(() => reservations.id, {
      onDelete: 'set null',
    }),
    relatedItemId: uuid('related_item_id').references(() => items.id, { onDelete: 'set null' }),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('notifications_type_check', oneOf(t.type, NOTIFICATION_TYPES)),
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc()),
    // The unread poll and badge read only unread rows.
    index('notifications_user_unread_idx').on(t.userId, t.createdAt.desc()).where(sql`${t.isRead} = false`),
  ],
);
