import { and, count, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { items, searchWords } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about items.

export const itemColumns = {
  id: items.id,
  userId: items.userId,
  title: items.title,
  description: items.description,
  category: items.category,
  images: items.images,
  condition: items.condition,
  depositCents: items.depositCents,
  rentalPriceCents: items.rentalPriceCents,
  rentalPeriod: items.rentalPeriod,
  pickupMethod: items.pickupMethod,
  pickupLocation: items.pickupLocation,
  availableFrom: items.availableFrom,
  availableUntil: items.availableUntil,
  availableDays: items.availableDays,
  isAvailable: items.isAvailable,
  campus: items.campus,
  createdAt: items.createdAt,
  hiddenAt: items.hiddenAt,
  owner: {
    id: users.id,
    fullName: users.fullName,
    username: users.username,
    profileImage: users.profileImage,
    isVerified: users.isVerified,
    campus: users.campus,
    suspendedAt: users.suspendedAt,
  },
};

export type ItemRow = {
  id: string;
  userId: string;
  title: string;
  description: string;
  category: string;
  images: string[];
  condition: string;
  depositCents: number | null;
  rentalPriceCents: number | null;
  rentalPeriod: string | null;
  pickupMethod: string;
  pickupLocation: string | null;
  availableFrom: string;
  availableUntil: string | null;
  availableDays: number[];
  isAvailable: boolean;
  campus: string;
  createdAt: Date;
  hiddenAt: Date | null;
  owner: {
    id: string;
    fullName: string;
    username: string;
    profileImage: string | null;
    isVerified: boolean;
    campus: string;
    suspendedAt: Date | null;
  };
};

export type ItemValues = Omit<typeof items.$inferInsert, 'id' | 'userId' | 'campus' | 'createdAt'>;

const live = isNull(items.deletedAt);
/**
 * What everyone may see: not deleted, not hidden by a moderator, and not of a suspended owner (needs
 * the users join). `deleted_at is null` stays in the condition, so the partial indexes still serve it.
 */
const listed = and(live, isNull(items.hiddenAt), isNull(users.suspendedAt))!;

/**
 * Spec/issue: available now = marked available, today inside its window and on one of its weekdays,
 * and not out with a borrower (an active reservation).
 */
export function availableNowCondition(today: { date: string; weekday: number }): SQL {
  return and(
    eq(items.isAvailable, true),
    lte(items.availableFrom, today.date),
    or(isNull(items.availableUntil), gte(items.availableUntil, today.date)),
    sql`${today.weekday}::smallint = any(${items.availableDays})`,
    sql`not exists (select 1 from ${reservations} r where r.item_id = ${items.id} and r.status = 'active')`,
  )!;
}

export interface SearchFilters {
  campus?: string;
  category?: string;
  searchQuery?: string;
  availableNow?: boolean;
  freeOnly?: boolean;
  maxPriceCents?: number;
  pickupMethod?: string;
  limit: number;
  offset: number;
  today: { date: string; weekday: number };
}

/**
 * A list's count stops here: past it the answer says "1,000+" (`totalCapped`). Counting every match
 * exactly read every matching row for each page of every list, the slowest part of an uncached list
 * (docs/performance.md); nobody pages through a thousand items.
 */
export const COUNT_CAP = 1000;

/**
 * A search ranks at most this many matches, the newest first. Ranking reads each match's whole search
 * vector; a common word on a big campus matches thousands of items.
 */
export const SEARCH_CANDIDATES = 1000;

/** A search's words: lower-case letters and digits, at most 8 (`drill, 18V!` → drill, 18v). */
export function searchWordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/**
 * Each search word as the catalogue knows it: kept when some word of the catalogue starts with it
 * ("calc", "drill"), else the most similar word of the vocabulary by trigrams ("drll" → "drill",
 * "calculater" → "calculator"), else kept (it then finds nothing, which is the truth). One statement:
 * the prefix probe reads the primary key, the similarity probe the trigram index of a table of distinct
 * words, thousands of rows where the items' texts were tens of thousands.
 */
export async function knownWords(db: Db, words: readonly string[]): Promise<string[]> {
  if (!words.length) return [];
  const result = await db.execute<{ word: string }>(sql`
    select coalesce(
      (select w.word from ${searchWords} w where w.word like asked.word || '%' limit 1),
      (select w.word from ${searchWords} w where length(asked.word) > 2 and w.word % asked.word
        order by w.word <-> asked.word, w.word limit 1)
    ) as word, asked.n
    from unnest(${sql.param(words)}::text[]) with ordinality as asked(word, n)
    order by asked.n`);
  // A word whose prefix is in the vocabulary stays as typed: `calc` must still match `calculator`.
  return result.rows.map((row, i) => (row.word?.startsWith(words[i]!) ? words[i]! : (row.word ?? words[i]!)));
}

/** `drill batt` → `drill:* & batt:*`, so partial words match. */
function prefixQuery(words: readonly string[]): string | null {
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

export async function searchItems(
  db: Db,
  f: SearchFilters,
): Promise<{ rows: ItemRow[]; total: number; totalCapped: boolean; hasMore: boolean }> {
  const conditions: (SQL | undefined)[] = [listed];
  if (f.campus && f.campus !== 'all') conditions.push(eq(items.campus, f.campus));
  if (f.category) conditions.push(eq(items.category, f.category));
  if (f.pickupMethod) conditions.push(eq(items.pickupMethod, f.pickupMethod));
  if (f.freeOnly) conditions.push(or(isNull(items.rentalPriceCents), eq(items.rentalPriceCents, 0)));
  if (f.maxPriceCents !== undefined) {
    conditions.push(or(isNull(items.rentalPriceCents), lte(items.rentalPriceCents, f.maxPriceCents)));
  }
  if (f.availableNow) conditions.push(availableNowCondition(f.today));

  const newest = [desc(items.createdAt), desc(items.id)];
  const asked = searchWordsOf(f.searchQuery ?? '');
  const tsquery = prefixQuery(asked.length ? await knownWords(db, asked) : []);
  if (asked.length && !tsquery) return { rows: [], total: 0, totalCapped: false, hasMore: false };

  // One row more than the page says whether there is a next page; the count stops at COUNT_CAP.
  const page = (where: SQL | undefined, order: SQL[]) =>
    db
      .select(itemColumns)
      .from(items)
      .innerJoin(users, eq(users.id, items.userId))
      .where(where)
      .orderBy(...order)
      .limit(f.limit + 1)
      .offset(f.offset);
  const cappedCount = (where: SQL | undefined) =>
    db.execute<{ n: number }>(
      sql`select count(*)::int as n from (${db
        .select({ one: sql`1` })
        .from(items)
        .innerJoin(users, eq(users.id, items.userId))
        .where(where)
        .limit(COUNT_CAP + 1)}) as capped`,
    );

  let rowsQuery: Promise<unknown[]>;
  let where: SQL | undefined;
  if (tsquery) {
    // The newest SEARCH_CANDIDATES matches of the full-text index, ranked: title words weigh most.
    const query = sql`to_tsquery('english', ${tsquery})`;
    where = and(...conditions, sql`${items.searchVector} @@ ${query}`);
    const candidates = db
      .select({ id: items.id })
      .from(items)
      .innerJoin(users, eq(users.id, items.userId))
      .where(where)
      .orderBy(...newest)
      .limit(SEARCH_CANDIDATES);
    rowsQuery = page(sql`${items.id} in (${candidates})`, [
      desc(sql`ts_rank(${items.searchVector}, ${query})`),
      ...newest,
    ]);
  } else {
    where = and(...conditions);
    rowsQuery = page(where, newest);
  }
  const [rows, counted] = await Promise.all([rowsQuery, cappedCount(where)]);
  const n = Number(counted.rows[0]?.n ?? 0);
  return {
    rows: rows.slice(0, f.limit) as ItemRow[],
    total: Math.min(n, COUNT_CAP),
    totalCapped: n > COUNT_CAP,
    hasMore: rows.length > f.limit,
  };
}

/** The item unless deleted; hidden ones too (the service decides who may see them). */
export async function findItem(db: Db, id: string): Promise<ItemRow | undefined> {
  const [row] = await db
    .select(itemColumns)
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.id, id), live))
    .limit(1);
  return row as ItemRow | undefined;
}

/** A person's items; `everything` adds the hidden ones (the owner's and the moderators' view). */
export async function listOwnerItems(db: Db, userId: string, everything: boolean): Promise<ItemRow[]> {
  const rows = await db
    .select(itemColumns)
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.userId, userId), everything ? live : listed))
    .orderBy(desc(items.createdAt));
  return rows as ItemRow[];
}

export async function insertItem(db: Db, values: ItemValues & { userId: string; campus: string }) {
  const [row] = await db.insert(items).values(values).returning({ id: items.id });
  return row!.id;
}

export async function updateItem(db: Db, id: string, values: ItemValues) {
  await db
    .update(items)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(items.id, id), live));
}

/** Soft delete (decision 005): the row stays for the reservations and billing that point at it. */
export async function softDeleteItem(db: Db, id: string) {
  await db.update(items).set({ deletedAt: new Date(), isAvailable: false }).where(eq(items.id, id));
}

export async function countAvailableNow(db: Db, userId: string, today: { date: string; weekday: number }) {
  const [row] = await db
    .select({ n: count() })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.userId, userId), listed, availableNowCondition(today)));
  return Number(row?.n ?? 0);
}
