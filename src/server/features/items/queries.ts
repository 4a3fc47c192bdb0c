import {
  and,
  asc,
  count,
  desc,
  eq,
  fillPlaceholders,
  gte,
  isNull,
  lte,
  or,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { jsonList, jsonRow, subqueries } from '../../db/json-rows.ts';
import { preparedOnce, statementName, unseenByPlanner } from '../../db/prepared.ts';
import { revealCutoff, revealedBy } from '../../db/review-visibility.ts';
import { reviews } from '../../db/schema/community.ts';
import { itemCounts, itemSearch, items } from '../../db/schema/items.ts';
import { users } from '../../db/schema/users.ts';
import { vocabularyOf } from './vocabulary.ts';

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
  cancellationPolicy: items.cancellationPolicy,
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

/**
 * The average and count of the revealed reviews `of` selects (a condition on the unaliased "reviews"):
 * correlated subqueries on the reviews' indexes, so a list stays one statement and a page of 12 items
 * reads a few index entries each. `cutoff` is `revealCutoff(now)` as SQL (a placeholder in
 * prepared lists).
 */
function revealedRating(of: SQL, cutoff: SQL, stars: SQL = sql`${reviews.rating}`) {
  const where = sql`${of} and ${revealedBy(cutoff)}`;
  return {
    average: sql<number | null>`(select avg(${stars})::float8 from ${reviews} where ${where})`.mapWith(
      (v: unknown) => (v === null ? null : Number(v)),
    ),
    count: sql<number>`(select count(*)::int from ${reviews} where ${where})`.mapWith(Number),
  };
}

/**
 * What borrowers rated the row's item (the reviews' (item_id, created_at) index): their item rating,
 * or their single rating where the review gave one for both (decision 053).
 */
function itemRating(cutoff: SQL) {
  const { average, count } = revealedRating(
    sql`"reviews"."item_id" = ${items.id} and "reviews"."review_type" = 'borrower_to_lender'`,
    cutoff,
    sql`coalesce(${reviews.itemRating}, ${reviews.rating})`,
  );
  return { ratingAverage: average, ratingCount: count };
}

/** The item's columns with its rating as at `cutoff`. */
export function itemColumnsRated(cutoff: SQL) {
  return { ...itemColumns, ...itemRating(cutoff) };
}

const cutoffAt = (now: Date) => sql`${revealCutoff(now).toISOString()}`;

export type ItemRow = {
  /** The average of the revealed borrowers' reviews; null without any. */
  ratingAverage: number | null;
  ratingCount: number;
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
  cancellationPolicy: string;
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
const suspendedOwnerIds = sql`(select s.id from ${users} s where s.suspended_at is not null)`;

/** Items, or what a search reads of them (`item_search`: live items only, with the same columns). */
type Listing = typeof items | typeof itemSearch;
/**
 * `listed` without joining the owners, over items (live ones) or `item_search` (which holds only
 * those): their items are left out by the few suspended owners' ids (hashed once, through their
 * partial index) instead of looking up each matching item's owner, which was most of a count's reads
 * (about 3 of every 3.5 buffers of Browse's count on the bench campus).
 */
const listedIn = (t: Listing) =>
  and(t === items ? live : undefined, isNull(t.hiddenAt), sql`${t.userId} not in ${suspendedOwnerIds}`)!;

/**
 * Spec/issue: available now = marked available, today inside its window and on one of its weekdays,
 * and not out with a borrower (an active reservation): `availableOn` of src/shared/availability.ts in
 * SQL (tests/api/availability-rules.test.ts holds the two together). Whether an item is out is the
 * count its reservations' triggers keep (migration 0052), so a list reads it from its covering index
 * instead of reading every item out for each page and count.
 */
export function availableNowCondition(
  today: {
    date: string | Placeholder<'today'>;
    weekday: number | Placeholder<'weekday'>;
  },
  t: Listing = items,
): SQL {
  // Literals, not parameters: a plan kept for every value can then use what the planner knows of
  // them (most items are in; "available" in partial indexes).
  return and(
    sql`${t.isAvailable} = true`,
    lte(t.availableFrom, today.date),
    or(isNull(t.availableUntil), gte(t.availableUntil, today.date)),
    sql`${today.weekday}::smallint = any(${t.availableDays})`,
    sql`${t.outCount} = 0`,
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
  /** Without one: a search's best matches first, any other list newest first. */
  sort?: 'newest' | 'price-low' | 'price-high';
  limit: number;
  offset: number;
  today: { date: string; weekday: number };
  /** Which reviews show in the ratings: those revealed by now. */
  now: Date;
}

/**
 * A list's count stops here: past it the answer says "1,000+" (`totalCapped`). Counting every match
 * exactly read every matching row for each page of every list, the slowest part of an uncached list
 * (docs/performance.md); nobody pages through a thousand items.
 */
export const COUNT_CAP = 1000;

/**
 * A search ranks at most this many matches: those with every word in the title first, then the newest.
 * Ranking reads each match's whole search vector; a common word on a big campus matches thousands of
 * items.
 */
export const SEARCH_CANDIDATES = 1000;

/**
 * A search's words: lower-case letters and digits, at most `most` (8 for a search: `drill, 18V!` →
 * drill, 18v).
 */
export function searchWordsOf(text: string, most = 8): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, most);
}

/**
 * Each search word as the catalogue knows it: kept when some word of the catalogue starts with it
 * ("calc", "drill"), else the nearest word of the vocabulary, prefixes included ("drll" → "drill",
 * "uke" → "ukulele", "calculater" → "calculator"), else kept (it then finds nothing, which is the
 * truth). The vocabulary is in this server's memory (vocabulary.ts): no query for words it knows.
 */
export function knownWords(db: Db, words: readonly string[]): Promise<string[]> {
  return words.length ? vocabularyOf(db).spell(db, words) : Promise.resolve([]);
}

/**
 * `drill batt` → `drill:* & batt:*`, so partial words match; with `weights` 'A', only in titles
 * (`drill:*A & batt:*A`).
 */
function prefixQuery(words: readonly string[], weights = ''): string | null {
  return words.length ? words.map((w) => `${w}:*${weights}`).join(' & ') : null;
}

/** Which filters a list has: each shape is one prepared statement pair (page and count). */
function shapeOf(f: SearchFilters, search: boolean) {
  return {
    campus: Boolean(f.campus && f.campus !== 'all'),
    category: Boolean(f.category),
    pickup: Boolean(f.pickupMethod),
    free: Boolean(f.freeOnly),
    maxPrice: f.maxPriceCents !== undefined,
    availableNow: Boolean(f.availableNow),
    search,
    newest: f.sort === 'newest',
    priceLow: f.sort === 'price-low',
    priceHigh: f.sort === 'price-high',
  };
}
type Shape = ReturnType<typeof shapeOf>;

const p = sql.placeholder;
/** `limit 1` written into the statement, not sent as a value (Drizzle writes SQL after LIMIT as it is). */
const ONE_ROW = sql.raw('1') as unknown as number;

/** The filters of a shape, with placeholders for their values, over items or `item_search`. */
function filterConditions(shape: Shape, t: Listing = items): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [listedIn(t)];
  if (shape.campus) conditions.push(eq(t.campus, p('campus')));
  if (shape.category) conditions.push(eq(t.category, p('category')));
  if (shape.pickup) conditions.push(eq(t.pickupMethod, p('pickupMethod')));
  if (shape.free) conditions.push(or(isNull(t.rentalPriceCents), eq(t.rentalPriceCents, 0)));
  if (shape.maxPrice) {
    conditions.push(or(isNull(t.rentalPriceCents), lte(t.rentalPriceCents, p('maxPriceCents'))));
  }
  if (shape.availableNow) {
    conditions.push(availableNowCondition({ date: p('today'), weekday: p('weekday') }, t));
  }
  return conditions;
}

/**
 * The page and capped-count queries of one shape without search words, with placeholders for every
 * value. Built once per shape and database, and prepared by name on PostgreSQL: building a list's SQL
 * through Drizzle and planning it in PostgreSQL cost more than running it (about 0.9 ms and 1.2 ms
 * against 1.1 ms for Home's two statements, docs/performance.md). A list's plan does not depend on its
 * values' selectivity as a search's does. At most 2^6 × 3 shapes (the three orders).
 */
function buildListQueries(db: Db, shape: Shape, name: string) {
  const where = and(...filterConditions(shape));
  const newest = [desc(items.createdAt), desc(items.id)];
  // A free item's price is 0: first from the cheapest, last from the dearest.
  const price = sql`coalesce(${items.rentalPriceCents}, 0)`;
  const order = shape.priceLow
    ? [asc(price), ...newest]
    : shape.priceHigh
      ? [desc(price), ...newest]
      : newest;
  // One row more than the page says whether there is a next page; the count stops at COUNT_CAP.
  // A page's rows are chosen first (from the covering index of its campus or category alone, when
  // it has one: migration 0049), and only they are read from the table, joined to their owners and
  // rated.
  // Joining first made PostgreSQL read every candidate row of a filtered list and rate the rows an
  // OFFSET skips (a campus-and-category first page: ~1,000 buffers against ~180, 2.5 ms against
  // 0.5 ms); for Home, which filters little, both forms read about the same (71 and 96 buffers).
  const chosen = db
    .select({
      id: sql<string>`${items.id}`.as('chosen_id'),
      position: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as('chosen_position'),
    })
    .from(items)
    .where(where)
    .orderBy(...order)
    .limit(unseenByPlanner('limit'))
    .offset(unseenByPlanner('offset'))
    .as('chosen');
  const pageOf = (
    extra: { matches?: SQL.Aliased<number>; newestCreatedUs?: SQL.Aliased<number | null> } = {},
  ) =>
    db
      .select({ ...itemColumnsRated(sql`${p('revealCutoff')}`), ...extra })
      .from(chosen)
      .innerJoin(items, eq(items.id, chosen.id))
      .innerJoin(users, eq(users.id, items.userId))
      .orderBy(asc(chosen.position));
  const counting = countedByTriggers(shape) ? keptCountQuery(db, shape) : cappedCountQuery(db, where);
  const countColumn = () => sql<number>`(${counting})`.mapWith(Number).as('matches');
  // When the list's newest item was created, in microseconds (an InitPlan, read once): a new listing
  // created after it is on none of the list's pages yet.
  const newestCreated = db
    .select({ us: sql`(extract(epoch from ${items.createdAt}) * 1000000)::bigint` })
    .from(items)
    .where(where)
    .orderBy(...newest)
    // A literal: as a parameter, the plan kept for all values assumed a tenth of the list and looked
    // dearer than one planned for the values, so PostgreSQL planned the whole-campus lists on every run.
    .limit(ONE_ROW);
  // Read only for a later page (laterPage): an InitPlan runs when it is first used, so a first page
  // does not read it.
  const newestColumn = () =>
    sql<number | null>`case when ${p('later')}::boolean then (${newestCreated}) end`
      .mapWith(Number)
      .as('newest_created_us');
  // Newest first, every page says so: a later page is read with the items before it (laterPage)
  // through the same statements, so no shape has more of them to plan.
  const newestFirst = !shape.priceLow && !shape.priceHigh;
  const newestOf = () => (newestFirst ? { newestCreatedUs: newestColumn() } : {});
  const pageQuery = pageOf(newestOf());
  // The page and its count in one statement, for a list whose count nobody has remembered: one
  // round trip instead of two (the count is an InitPlan, read once).
  const pageCountedQuery = pageOf({ matches: countColumn(), ...newestOf() });
  return {
    /** The page's queries before they are prepared, to look at their plans. */
    pageQuery,
    pageCountedQuery,
    page: pageQuery.prepare(statementName(`items_page_${name}`)),
    count: counting.prepare(
      statementName(`items_${countedByTriggers(shape) ? 'kept_count' : 'count'}_${name}`),
    ),
    pageCounted: pageCountedQuery.prepare(statementName(`items_page_counted_${name}`)),
    /** A newest-first list's later pages, read with the items before them (new-listings.ts). */
    newestFirst,
  };
}

/** A list's count, capped at COUNT_CAP + 1 matches of `where`. */
function cappedCountQuery(db: Db, where: SQL | undefined) {
  const capped = db
    .select({ one: sql`1`.as('one') })
    .from(items)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as('capped');
  return db.select({ n: sql<number>`count(*)::int`.as('n') }).from(capped);
}

/** A list filtered by nothing but its campus and category: `item_counts` knows how many it has. */
function countedByTriggers(shape: Shape): boolean {
  return !shape.pickup && !shape.free && !shape.maxPrice && !shape.availableNow && !shape.search;
}

/**
 * A plain list's count from the counters the items' triggers keep (migration 0047), less the items of
 * suspended owners, which the counters include: one statement, so both parts are read from the same
 * snapshot and the figure is exact whatever is being written meanwhile. The suspended are few, found
 * through their partial index.
 */
function keptCountQuery(db: Db, shape: Shape) {
  const filters = (campus: AnyPgColumn, category: AnyPgColumn) => [
    shape.campus ? eq(campus, p('campus')) : undefined,
    shape.category ? eq(category, p('category')) : undefined,
  ];
  const ofSuspended = db
    .select({ n: count() })
    .from(items)
    .where(
      and(
        live,
        isNull(items.hiddenAt),
        sql`${items.userId} in ${suspendedOwnerIds}`,
        ...filters(items.campus, items.category),
      ),
    );
  return db
    .select({ n: sql<number>`(coalesce(sum(${itemCounts.live}), 0) - (${ofSuspended}))::int`.as('n') })
    .from(itemCounts)
    .where(and(...filters(itemCounts.campus, itemCounts.category)));
}

/**
 * A search's page and its capped count in one statement, over one pass of its candidates: the newest
 * SEARCH_CANDIDATES + 1 matches are read once from `item_search` (with the search vector they are
 * ranked by), counted, and the page is ranked among the first SEARCH_CANDIDATES of them; only the
 * page's rows are read from items, joined to their owners and rated.
 *
 * Prepared by name, as the lists are. Every plan of it reads the matches through the full-text index
 * (the candidates are ordered by whether the title matches, which no index holds), so the plan
 * PostgreSQL keeps for all words is the one it would make for each. The two full-text queries are
 * each turned from text once per execution (`(select to_tsquery(…))`, an InitPlan): written inline,
 * a kept plan would parse them again for every candidate it ranks and sorts (measured on the bench
 * campus: 4.7 ms against 2.4 ms for "textbook", decision 072).
 */
function searchQueryOf(db: Db, shape: Shape) {
  const query = sql`(select to_tsquery('english', ${p('tsquery')}))`;
  // Items with every word in the title come first among the candidates, then the newest: on a big
  // campus a common word matches thousands of descriptions, and the cap must not drop the listing
  // that is called what was searched for in favour of newer ones that merely mention it.
  const inTitle = sql`${itemSearch.searchVector} @@ (select to_tsquery('english', ${p('titleTsquery')}))`;
  const candidateOrder = [desc(inTitle), desc(itemSearch.createdAt), desc(itemSearch.id)];
  const candidates = db.$with('candidates').as(
    db
      .select({
        id: sql<string>`${itemSearch.id}`.as('candidate_id'),
        createdAt: sql<Date>`${itemSearch.createdAt}`.as('candidate_created_at'),
        price: sql<number>`coalesce(${itemSearch.rentalPriceCents}, 0)`.as('candidate_price'),
        vector: sql<string>`${itemSearch.searchVector}`.as('candidate_vector'),
        n: sql<number>`row_number() over (order by ${sql.join(candidateOrder, sql`, `)})`.as('candidate_n'),
      })
      .from(itemSearch)
      .where(and(...filterConditions(shape, itemSearch), sql`${itemSearch.searchVector} @@ ${query}`))
      .orderBy(...candidateOrder)
      .limit(SEARCH_CANDIDATES + 1),
  );
  const rank = sql`ts_rank(${candidates.vector}, ${query})`;
  const newest = [desc(candidates.createdAt), desc(candidates.id)];
  const order = shape.priceLow
    ? [asc(candidates.price), ...newest]
    : shape.priceHigh
      ? [desc(candidates.price), ...newest]
      : shape.newest
        ? newest
        : [desc(rank), ...newest];
  const ranked = db.$with('ranked').as(
    db
      .select({
        id: sql<string>`${candidates.id}`.as('ranked_id'),
        position: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as('ranked_position'),
      })
      .from(candidates)
      .where(lte(candidates.n, SEARCH_CANDIDATES))
      .orderBy(...order)
      .limit(p('limit'))
      .offset(p('offset')),
  );
  return db
    .with(candidates, ranked)
    .select({
      ...itemColumnsRated(sql`${p('revealCutoff')}`),
      matches: sql<number>`(select count(*)::int from "candidates")`.mapWith(Number),
    })
    .from(ranked)
    .innerJoin(items, eq(items.id, ranked.id))
    .innerJoin(users, eq(users.id, items.userId))
    .orderBy(asc(ranked.position));
}

const searchStatementName = (shapeName: string) => statementName(`items_search_${shapeName}`);

function buildSearchQuery(db: Db, shape: Shape, name: string) {
  return searchQueryOf(db, shape).prepare(searchStatementName(name));
}

type ListQueries = ReturnType<typeof buildListQueries>;
type SearchQuery = ReturnType<typeof buildSearchQuery>;

/**
 * Each filter's part of a statement's name, short: PostgreSQL cuts names at 63 bytes, and two shapes
 * cut to the same name would share one statement.
 */
const SHAPE_PARTS: Record<keyof Shape, string> = {
  campus: 'campus',
  category: 'cat',
  pickup: 'pick',
  free: 'free',
  maxPrice: 'max',
  availableNow: 'avail',
  search: 'words',
  newest: 'new',
  priceLow: 'low',
  priceHigh: 'high',
};

function shapeName(shape: Shape) {
  return (
    (Object.keys(SHAPE_PARTS) as (keyof Shape)[])
      .filter((key) => shape[key])
      .map((key) => SHAPE_PARTS[key])
      .join('_') || 'all'
  );
}

function queriesFor<T extends ListQueries | SearchQuery>(
  db: Db,
  shape: Shape,
  build: (name: string) => T,
): T {
  const name = shapeName(shape);
  return preparedOnce(db, `items_${name}`, () => build(name));
}

/**
 * The full-text query a search's words stand for (the vocabulary's spelling), and the same in titles
 * only; null without words.
 */
async function tsqueryOf(db: Db, searchQuery: string | undefined): Promise<TextQuery | null> {
  const asked = searchWordsOf(searchQuery ?? '');
  if (!asked.length) return null;
  const words = await knownWords(db, asked);
  return { tsquery: prefixQuery(words)!, titleTsquery: prefixQuery(words, 'A')! };
}
type TextQuery = { tsquery: string; titleTsquery: string };

function valuesOf(f: SearchFilters, text: TextQuery | null) {
  return {
    tsquery: text?.tsquery ?? null,
    titleTsquery: text?.titleTsquery ?? null,
    campus: f.campus,
    category: f.category,
    pickupMethod: f.pickupMethod,
    maxPriceCents: f.maxPriceCents,
    today: f.today.date,
    weekday: f.today.weekday,
    revealCutoff: revealCutoff(f.now).toISOString(),
    limit: f.limit + 1,
    offset: f.offset,
    later: false,
  };
}

export type ItemCount = { total: number; totalCapped: boolean };
const cappedCount = (n: number): ItemCount => ({ total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP });

/**
 * One page of a list or search; one row more than the page says whether there is a next page. A search
 * also answers its count (`counted`) from the same statement, unless the page is past its last match;
 * so does a list when `withCount` asks for it.
 */
export async function findItemsPage(
  db: Db,
  f: SearchFilters,
  { withCount = false, later = false }: { withCount?: boolean; later?: boolean } = {},
): Promise<{ rows: ItemRow[]; hasMore: boolean; counted?: ItemCount; before?: PageBefore }> {
  const tsquery = await tsqueryOf(db, f.searchQuery);
  const shape = shapeOf(f, Boolean(tsquery));
  if (!shape.search) {
    const statements = queriesFor(db, shape, (name) => buildListQueries(db, shape, name));
    if (later && statements.newestFirst && f.offset >= PAGE_BEFORE_ITEMS) {
      return laterPage(statements, f, tsquery, withCount);
    }
    if (!withCount) {
      const rows = await statements.page.execute(valuesOf(f, tsquery));
      return { rows: rows.slice(0, f.limit).map(rowOf), hasMore: rows.length > f.limit };
    }
    return pageWithCount(await statements.pageCounted.execute(valuesOf(f, tsquery)), f);
  }
  const search = queriesFor(db, shape, (name) => buildSearchQuery(db, shape, name));
  return pageWithCount(await search.execute(valuesOf(f, tsquery)), f);
}

/** How many of the items before a later page it reads too: as many new listings as it can take in place. */
export const PAGE_BEFORE_ITEMS = 3;

/**
 * What a later page, newest first, read of the list before it in the same statement: the last
 * PAGE_BEFORE_ITEMS items of the pages before (oldest last), and when the list's newest item was
 * created, in microseconds since 1970.
 */
export interface PageBefore {
  rows: ItemRow[];
  newestCreatedUs: number;
}

/** A later page's values: from PAGE_BEFORE_ITEMS items earlier, with one more than the page after it. */
const laterValuesOf = (f: SearchFilters, text: TextQuery | null) => ({
  ...valuesOf(f, text),
  offset: f.offset - PAGE_BEFORE_ITEMS,
  limit: f.limit + PAGE_BEFORE_ITEMS + 1,
  later: true,
});

/**
 * A later page newest first, read from PAGE_BEFORE_ITEMS items earlier: those items come with it, and
 * the list's newest item's time. A list too short to have them all answers the page alone.
 */
async function laterPage(
  statements: ListQueries,
  f: SearchFilters,
  tsquery: TextQuery | null,
  withCount: boolean,
) {
  const rows = (await (withCount ? statements.pageCounted : statements.page).execute(
    laterValuesOf(f, tsquery),
  )) as (ItemRow & {
    matches?: number;
    newestCreatedUs: number | null;
  })[];
  const newestCreatedUs = rows[0]?.newestCreatedUs;
  const page = rows.slice(PAGE_BEFORE_ITEMS);
  return {
    rows: page.slice(0, f.limit).map(rowOf),
    hasMore: page.length > f.limit,
    ...(withCount && rows[0]?.matches !== undefined ? { counted: cappedCount(rows[0].matches) } : {}),
    ...(rows.length >= PAGE_BEFORE_ITEMS && typeof newestCreatedUs === 'number'
      ? { before: { rows: rows.slice(0, PAGE_BEFORE_ITEMS).map(rowOf), newestCreatedUs } }
      : {}),
  };
}

/** A page's row without what its statement said of the whole list beside it. */
const rowOf = ({
  matches: _matches,
  newestCreatedUs: _newest,
  ...row
}: ItemRow & { matches?: number; newestCreatedUs?: number | null }) => row as ItemRow;

/**
 * A page whose rows each carry the count of all its matches. An empty first page counts none; past
 * the last match the page cannot say, and the count is asked apart.
 */
function pageWithCount(rows: readonly (ItemRow & { matches?: number })[], f: SearchFilters) {
  const matches = rows[0]?.matches ?? (f.offset === 0 ? 0 : undefined);
  return {
    rows: rows.slice(0, f.limit).map(rowOf),
    hasMore: rows.length > f.limit,
    ...(matches === undefined ? {} : { counted: cappedCount(matches) }),
  };
}

/**
 * How many items a list or search finds, up to COUNT_CAP. Every match is read (and, with "available
 * now", checked against the items out): the caller counts once per filter, not once per page, and a
 * search's page answers its count itself.
 */
export async function countItems(db: Db, f: SearchFilters): Promise<ItemCount> {
  const tsquery = await tsqueryOf(db, f.searchQuery);
  const shape = shapeOf(f, Boolean(tsquery));
  if (shape.search) {
    // The first page's statement counts; a page of one row is the least it can read.
    const rows = await queriesFor(db, shape, (name) => buildSearchQuery(db, shape, name)).execute({
      ...valuesOf(f, tsquery),
      limit: 1,
      offset: 0,
    });
    return cappedCount(rows[0]?.matches ?? 0);
  }
  const { count } = queriesFor(db, shape, (name) => buildListQueries(db, shape, name));
  const counted = await count.execute(valuesOf(f, tsquery));
  return cappedCount(Number(counted[0]?.n ?? 0));
}

/**
 * The statement a search for `f` runs (which needs words): its name on PostgreSQL, its SQL and its
 * values, for looking at its plan.
 */
export async function searchStatementOf(db: Db, f: SearchFilters) {
  const text = await tsqueryOf(db, f.searchQuery);
  if (!text) throw new Error('A search statement needs search words');
  const shape = shapeOf(f, true);
  const { sql: statement, params } = searchQueryOf(db, shape).toSQL();
  return {
    name: searchStatementName(shapeName(shape)),
    sql: statement,
    params: fillPlaceholders(params, valuesOf(f, text)),
  };
}

/**
 * The statement a list's page without words runs for `f` (Home's, Browse's; a later page newest first
 * with the items before it), `counted` with its count: its SQL and values.
 */
export async function listStatementOf(db: Db, f: SearchFilters, { counted = false } = {}) {
  const shape = shapeOf(f, false);
  const statements = queriesFor(db, shape, (name) => buildListQueries(db, shape, name));
  // A later page newest first is read with the items before it (laterPage).
  const later = statements.newestFirst && f.offset >= PAGE_BEFORE_ITEMS;
  const query = counted ? statements.pageCountedQuery : statements.pageQuery;
  const { sql: statement, params } = query.toSQL();
  return { sql: statement, params: fillPlaceholders(params, (later ? laterValuesOf : valuesOf)(f, null)) };
}

/**
 * findItem's statement, prepared by name on PostgreSQL (planning it cost more than running it, and a
 * new listing, an edit and a removal each read it). Placeholders: `id`, `revealCutoff` (ISO).
 */
export function foundItemQuery(db: Db) {
  const cutoff = sql`${p('revealCutoff')}`;
  const lender = revealedRating(sql`"reviews"."reviewee_id" = ${items.userId}`, cutoff);
  return db
    .select({ ...itemColumnsRated(cutoff), lenderAverage: lender.average, lenderCount: lender.count })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.id, p('id')), live))
    .limit(1);
}

/**
 * The item unless deleted; hidden ones too (the service decides who may see them). With the lender's
 * rating over every revealed review they received, as their profile counts it (the "Listed by" card).
 */
export async function findItem(
  db: Db,
  id: string,
  now: Date,
): Promise<(ItemRow & { lenderAverage: number | null; lenderCount: number }) | undefined> {
  // Every revealed review the lender received (the reviews' (reviewee_id, created_at) index).
  const statement = preparedOnce(db, 'item_found', (name) => foundItemQuery(db).prepare(name));
  const [row] = await statement.execute({ id, revealCutoff: revealCutoff(now).toISOString() });
  return row as (ItemRow & { lenderAverage: number | null; lenderCount: number }) | undefined;
}

/**
 * A listing as a list's card shows it (a list page's row), with whether lists show it (`listed`) and
 * whether it is available on `today`; undefined when it is deleted.
 */
export async function findListCard(
  db: Db,
  id: string,
  today: { date: string; weekday: number },
  now: Date,
): Promise<{ row: ItemRow; listed: boolean; availableNow: boolean } | undefined> {
  // Read for each new listing the lists are told of: prepared by name, as findItem is.
  const statement = preparedOnce(db, 'item_list_card', (name) => listCardQuery(db).prepare(name));
  const [found] = await statement.execute({
    id,
    revealCutoff: revealCutoff(now).toISOString(),
    today: today.date,
    weekday: today.weekday,
  });
  if (!found) return undefined;
  const { listedNow, availableToday, ...row } = found;
  return { row: row as ItemRow, listed: listedNow, availableNow: availableToday };
}

/** findListCard's statement. Placeholders: `id`, `revealCutoff` (ISO), `today` (a day), `weekday`. */
export function listCardQuery(db: Db) {
  return db
    .select({
      ...itemColumnsRated(sql`${p('revealCutoff')}`),
      listedNow: sql<boolean>`coalesce(${listed}, false)`,
      availableToday: sql<boolean>`coalesce(${availableNowCondition({ date: p('today'), weekday: p('weekday') })}, false)`,
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.id, p('id')), live))
    .limit(1);
}

/** A person's items; `everything` adds the hidden ones (the owner's and the moderators' view). */
export async function listOwnerItems(
  db: Db,
  userId: string,
  everything: boolean,
  now: Date,
): Promise<ItemRow[]> {
  const rows = await db
    .select(itemColumnsRated(cutoffAt(now)))
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.userId, userId), everything ? live : listed))
    .orderBy(desc(items.createdAt));
  return rows as ItemRow[];
}

/**
 * The item page in one statement, prepared by name on PostgreSQL: findItem's row with listForItem's
 * reviews (as JSON, reviews/queries.ts) beside it. Placeholders: `id`, `revealCutoff` (an ISO
 * timestamp). Planning the two statements it replaces cost PostgreSQL more than running them.
 */
function buildItemPage(db: Db, reviewsOf: ItemReviewsPart) {
  const cutoff = sql`${p('revealCutoff')}`;
  const lender = revealedRating(sql`"reviews"."reviewee_id" = ${items.userId}`, cutoff);
  return db
    .select({
      ...itemColumnsRated(cutoff),
      lenderAverage: lender.average,
      lenderCount: lender.count,
      reviews: reviewsOf(p('id'), cutoff),
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(eq(items.id, p('id')), live))
    .limit(1)
    .prepare('item_page');
}

/** The reviews' JSON list of an item (the reviews feature's), given the item's id and the reveal cutoff. */
export type ItemReviewsPart = (itemId: SQLWrapper, cutoff: SQL) => SQL;

/** findItem's row and the item's reviews as `reviewsOf` reads them (their JSON), in one statement. */
export async function findItemPage(db: Db, id: string, now: Date, reviewsOf: ItemReviewsPart) {
  const prepared = preparedOnce(db, 'item_page', () => buildItemPage(db, reviewsOf));
  const [row] = await prepared.execute({ id, revealCutoff: revealCutoff(now).toISOString() });
  if (!row) return undefined;
  const { reviews: json, ...item } = row;
  return {
    row: item as ItemRow & { lenderAverage: number | null; lenderCount: number },
    reviewsJson: json,
  };
}

const ownerItemJson = jsonRow(itemColumnsRated(sql`${p('revealCutoff')}`));

/**
 * listOwnerItems' rows as one JSON array, inside a profile's one statement (decodeOwnerItems reads
 * it). Placeholder: `revealCutoff`.
 */
export function ownerItemsJson(userId: SQLWrapper, everything: boolean) {
  return jsonList(
    subqueries
      .select({ row: ownerItemJson.row })
      .from(items)
      .innerJoin(users, eq(users.id, items.userId))
      .where(and(eq(items.userId, userId), everything ? live : listed))
      .orderBy(desc(items.createdAt)),
  );
}

export const decodeOwnerItems = (json: unknown) => ownerItemJson.decodeList(json) as ItemRow[];

/** countAvailableNow inside a profile's one statement. Placeholders: `today`, `weekday`. */
export function availableNowCountOf(userId: SQLWrapper) {
  return sql`(${subqueries
    .select({ n: sql<number>`count(*)::int`.as('n') })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(
      and(
        eq(items.userId, userId),
        listed,
        availableNowCondition({ date: p('today'), weekday: p('weekday') }),
      ),
    )})`.mapWith(Number);
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

/** The most listings a sitemap file may name (sitemaps.org). */
export const SITEMAP_MAX_ITEMS = 50_000;

/**
 * Every item everyone may see (not deleted, not hidden, owner not suspended), newest change first,
 * for sitemap.xml.
 */
export async function listPublicItemIds(db: Db): Promise<{ id: string; updatedAt: Date }[]> {
  return db
    .select({ id: items.id, updatedAt: items.updatedAt })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(listed)
    .orderBy(desc(items.updatedAt))
    .limit(SITEMAP_MAX_ITEMS);
}

/** What a saved search is matched against: the listing's filters and whether everyone may see it. */
export async function findListingForMatching(db: Db, id: string) {
  const [row] = await db
    .select({
      id: items.id,
      userId: items.userId,
      title: items.title,
      campus: items.campus,
      category: items.category,
      rentalPriceCents: items.rentalPriceCents,
      searchText: items.searchText,
      listed: sql<boolean>`(${listed})`.mapWith(Boolean),
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, id))
    .limit(1);
  return row ? { ...row, searchText: row.searchText ?? '' } : undefined;
}

/**
 * Which of `searches` (each its words, as searchWordsOf reads them) would find the item by searching
 * now: the same vocabulary correction (knownWords) and the same prefix full-text query as a search,
 * against the item's own search vector. One statement for the vocabulary, one for every search.
 */
export async function searchesFinding(
  db: Db,
  itemId: string,
  searches: readonly { id: string; words: readonly string[] }[],
): Promise<string[]> {
  if (!searches.length) return [];
  const asked = [...new Set(searches.flatMap((search) => search.words))];
  const corrected = await knownWords(db, asked);
  const known = new Map(asked.map((word, i) => [word, corrected[i] ?? word]));
  return searchesMatching(
    db,
    [itemId],
    searches.map((search) => ({ id: search.id, words: search.words.map((word) => known.get(word)!) })),
  );
}

/**
 * What a check of the searches told needs from the database (searches-matched.ts), in one statement:
 * the words of each item's search vector (its lexemes, as stemmed) with its campus, and each of
 * `queries` (a search's prefix query, as prefixQuery writes it) as the full-text parser reads it: the
 * same stemming and stop words as a search's `to_tsquery('english', …)`.
 */
export async function lexemesOf(
  db: Db,
  itemIds: readonly string[],
  queries: readonly (readonly string[])[],
): Promise<{
  items: { id: string; campus: string; lexemes: string[] }[];
  parsed: string[];
}> {
  const texts = queries.map((words) => prefixQuery(words) ?? '');
  const result = await db.execute<{
    key: string;
    campus: string | null;
    lexemes: string[] | null;
    parsed: string | null;
  }>(sql`
    select ${items.id}::text as key, ${items.campus} as campus,
      tsvector_to_array(${items.searchVector}) as lexemes, null::text as parsed
    from ${items} where ${items.id} = any(${sql.param([...itemIds])}::uuid[])
    union all
    select asked.q, null, null, to_tsquery('english', asked.q)::text
    from unnest(${sql.param(texts)}::text[]) as asked(q)`);
  const found: { id: string; campus: string; lexemes: string[] }[] = [];
  const parsedByText = new Map<string, string>();
  for (const row of result.rows) {
    if (row.lexemes) found.push({ id: row.key, campus: row.campus ?? '', lexemes: row.lexemes });
    else parsedByText.set(row.key, row.parsed ?? '');
  }
  return { items: found, parsed: texts.map((text) => parsedByText.get(text) ?? '') };
}

/**
 * Which of `searches` (each its words as the search ran them, already corrected, and its campus, none
 * for every campus) match any of the items' search vectors, whatever their other filters and the
 * items' own state (hidden, deleted, out): one statement. The read caches ask it of the searches they
 * remember when items change.
 */
export async function searchesMatching(
  db: Db,
  itemIds: readonly string[],
  searches: readonly { id: string; words: readonly string[]; campus?: string | undefined }[],
): Promise<string[]> {
  if (!searches.length || !itemIds.length) return [];
  const ids = searches.map((search) => search.id);
  const tsqueries = searches.map((search) => prefixQuery(search.words)!);
  const campuses = searches.map((search) => search.campus ?? null);
  const result = await db.execute<{ id: string }>(sql`
    select distinct asked.id
    from unnest(${sql.param(ids)}::text[], ${sql.param(tsqueries)}::text[], ${sql.param(campuses)}::text[])
      as asked(id, q, campus)
    join ${items} on ${items.id} = any(${sql.param([...itemIds])}::uuid[])
      and (asked.campus is null or ${items.campus} = asked.campus)
    where ${items.searchVector} @@ to_tsquery('english', asked.q)`);
  return result.rows.map((row) => row.id);
}
