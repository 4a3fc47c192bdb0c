import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { items } from './schema/items.ts';

/**
 * The one lock every change to an item's calendar takes first: reservation transitions (approvals above
 * all), extensions and the waitlist. The first approval of overlapping requests commits before the next
 * one looks, and a waitlist join, a freeing change and the waitlist job see each other's result. Every
 * transition takes this lock first and the reservation's second, one order for all, so two cannot
 * deadlock. NO KEY UPDATE, not UPDATE: rows that merely point at the item (a notification, a new
 * request) take KEY SHARE on it, which this does not block. The exclusion constraint stays the last word.
 * Here, not in one feature's queries, because those features may not import each other's.
 */
export async function lockItemCalendar(db: Db, itemId: string) {
  await db.execute(sql`select id from ${items} where ${items.id} = ${itemId} for no key update`);
}
