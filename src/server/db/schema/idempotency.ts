import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * A signed-in person's state-changing request, by the Idempotency-Key its client sent (decision 039):
 * its first answer, replayed to a retry of the same request, so an answer lost on the way (a timeout,
 * a 503 after the commit) never makes the retry do it twice or answer differently. Kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Method, path and body, hashed: the same key for another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Set in the transaction of the state change itself: the effect happened, whatever the answer. */
    committed: boolean('committed').notNull().default(false),
    /** Null while the first request is being processed. */
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    body: text('body'),
    /** While being processed: after this, its process is taken to have died and a retry may run it. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
