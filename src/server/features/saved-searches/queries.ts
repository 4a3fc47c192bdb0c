import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
import { savedSearches, savedSearchMatches } from '../../db/schema/saved-searches.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about saved searches and the listings they were told of.

export type SavedSearchRow = typeof savedSearches.$inferSelect;
export type SavedSearchValues = Omit<
  typeof savedSearches.$inferInsert,
  'id' | 'createdAt' | 'batchNotificationId' | 'batchStartedAt'
>;

export function listForUser(db: Db, userId: string) {
  return db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, userId))
    .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));
}

/** Holds the person's row until the transaction ends: their saves are counted one at a time. */
export async function lockPerson(db: Db, userId: string) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function countForUser(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(savedSearches).where(eq(savedSearches.userId, userId));
  return Number(row?.n ?? 0);
}

export async function findByKey(db: Db, userId: string, dedupeKey: string) {
  const [row] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.userId, userId), eq(savedSearches.dedupeKey, dedupeKey)))
    .limit(1);
  return row;
}

/** The new row, or undefined when the same search was saved meanwhile. */
export async function insert(db: Db, values: SavedSearchValues) {
  const [row] = await db.insert(savedSearches).values(values).onConflictDoNothing().returning();
  return row;
}

/** Deletes the person's own saved search; answers whether there was one. */
export async function deleteOwn(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning({ id: savedSearches.id });
  return rows.length > 0;
}

/**
 * The saved searches a new listing may match, by index lookups: of its campus, not its lister's, whose
 * category and price filters it passes, and whose first word is a prefix of one of the listing's words
 * (the campus and lead word index) or like one of them by trigrams (a typo; the trigram index). The
 * search's own text rules then decide (itemService.searchesFinding).
 */
export async function candidatesFor(
  db: Db,
  listing: {
    campus: string;
    userId: string;
    category: string;
    rentalPriceCents: number | null;
    prefixes: string[];
    words: string[];
  },
) {
  const price = listing.rentalPriceCents ?? 0;
  const result = await db.execute<{ id: string; words: string[] }>(sql`
    select s.id, s.words from ${savedSearches} s
    join ${users} u on u.id = s.user_id and u.deleted_at is null
    where s.campus = ${listing.campus}
      and s.user_id <> ${listing.userId}
      and (s.category is null or s.category = ${listing.category})
      and (not s.free_only or ${price} = 0)
      and (s.max_price_cents is null or ${price} <= s.max_price_cents)
      and (
        s.lead_word = any(${sql.param(listing.prefixes)}::text[])
        or s.id in (
          select t.id from ${savedSearches} t
          join unnest(${sql.param(listing.words)}::text[]) as w(word) on t.lead_word % w.word
          where t.campus = ${listing.campus}
        )
      )`);
  return result.rows.map((row) => ({ id: row.id, words: row.words }));
}

/** The saved search, held until the transaction ends: its batch is changed by one job at a time. */
export async function lockSearch(db: Db, id: string) {
  const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id)).for('update');
  return row;
}

/** Records that the person is told of the listing; false when they already were (by any search). */
export async function insertMatch(
  db: Db,
  values: { userId: string; itemId: string; savedSearchId: string },
): Promise<boolean> {
  const rows = await db
    .insert(savedSearchMatches)
    .values(values)
    .onConflictDoNothing()
    .returning({ itemId: savedSearchMatches.itemId });
  return rows.length > 0;
}

export async function setMatchNotification(db: Db, userId: string, itemId: string, notificationId: string) {
  await db
    .update(savedSearchMatches)
    .set({ notificationId })
    .where(and(eq(savedSearchMatches.userId, userId), eq(savedSearchMatches.itemId, itemId)));
}

export async function openBatch(db: Db, id: string, notificationId: string, startedAt: Date) {
  await db
    .update(savedSearches)
    .set({ batchNotificationId: notificationId, batchStartedAt: startedAt })
    .where(eq(savedSearches.id, id));
}

/** The listings one notification tells of, oldest first (ids and titles, for the words and links). */
export function listingsOf(db: Db, notificationId: string) {
  return db
    .select({ id: items.id, title: items.title })
    .from(savedSearchMatches)
    .innerJoin(items, eq(items.id, savedSearchMatches.itemId))
    .where(eq(savedSearchMatches.notificationId, notificationId))
    .orderBy(asc(savedSearchMatches.createdAt), asc(items.id));
}
