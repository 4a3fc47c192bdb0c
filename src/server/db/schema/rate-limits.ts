import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Counters of rate-limiter-flexible's Drizzle store: one row per limit and person, shared by
 * every server instance, so a limit per person holds whichever instance or socket the person uses.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});
