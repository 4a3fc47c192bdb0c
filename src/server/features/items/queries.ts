import { and, count, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
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

/** `drill batt` → `drill:* & batt:*`, so partial words match; only letters and digits survive. */
function prefixQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

export async function searchItems(db: Db, f: SearchFilters): Promise<{ rows: ItemRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [listed];
  if (f.campus && f.campus !== 'all') conditions.push(eq(items.campus, f.campus));
  if (f.category) conditions.push(eq(items.category, f.category));
  if (f.pickupMethod) conditions.push(eq(items.pickupMethod, f.pickupMethod));
  if (f.freeOnly) conditions.push(or(isNull(items.rentalPriceCents), eq(items.rentalPriceCents, 0)));
  if (f.maxPriceCents !== undefined) {
    conditions.push(or(isNull(items.rentalPriceCents), lte(items.rentalPriceCents, f.maxPriceCents)));
  }
  if (f.availableNow) conditions.push(availableNowCondition(f.today));

  const q = f.searchQuery?.trim().toLowerCase() ?? '';
  const tsquery = q ? prefixQuery(q) : null;
  let order: SQL[] = [desc(items.createdAt), desc(items.id)];
  if (q) {
    // Whole and partial words through the full-text index; typos through trigram word similarity
    // (pg_trgm's `<%`: "drll" is close enough to a word of "cordless drill").
    const fullText = tsquery ? sql`${items.searchVector} @@ to_tsquery('english', ${tsquery})` : sql`false`;
    conditions.push(or(fullText, sql`${q} <% ${items.searchText}`));
    const rank = tsquery ? sql`ts_rank(${items.searchVector}, to_tsquery('english', ${tsquery}))` : sql`0`;
    order = [
      desc(
        sql`${rank} * 2 + word_similarity(${q}, lower(${items.title})) + 0.5 * word_similarity(${q}, ${items.searchText})`,
      ),
      desc(items.createdAt),
    ];
  }

  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(itemColumns)
      .from(items)
      .innerJoin(users, eq(users.id, items.userId))
      .where(where)
      .orderBy(...order)
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: count() }).from(items).innerJoin(users, eq(users.id, items.userId)).where(where),
  ]);
  return { rows: rows as ItemRow[], total: Number(totalRow?.n ?? 0) };
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
