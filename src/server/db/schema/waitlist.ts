import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { WAITLIST_STATUSES } from '#shared/booking/waitlist.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { items } from './items.ts';
import { users } from './users.ts';

// "Notify me when available". A row per person, item and dates, told once.

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: id(),
    /** Joining order: who is told first. A sequence, not created_at, which ties within a transaction. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    status: text('status').notNull().default('waiting'),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('waitlist_entries_status_check', oneOf(t.status, WAITLIST_STATUSES)),
    check('waitlist_entries_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    // One entry per person, item and dates while it waits (a second join is a 409, a race included).
    uniqueIndex('waitlist_entries_waiting_unique')
      .on(t.itemId, t.userId, t.startDate, t.endDate)
      .where(sql`${t.status} = 'waiting'`),
    // Who to tell when an item's dates free up, in joining order.
    index('waitlist_entries_item_waiting_idx').on(t.itemId, t.seq).where(sql`${t.status} = 'waiting'`),
    index('waitlist_entries_user_item_idx').on(t.userId, t.itemId),
  ],
);
