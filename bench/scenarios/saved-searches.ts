import { sql } from 'drizzle-orm';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { Db } from '../../src/server/db/client.ts';
import { listingAt } from '../catalogue.ts';
import type { Fixtures } from '../fixtures.ts';
import { type LatencySummary, Samples } from '../load.ts';
import { campusSearches } from '../search-queries.ts';

// Saved searches (decision 067): SAVED_SEARCHES of them on the bench campus, made of the campus's own
// searches (a quarter misspelt, as students type them), then listings posted at the campus day's listing
// rate, once with matching on and once off. What is measured: the listing's answer time either way (the
// request only adds the job's row), and how long the matching job takes per listing (pg-boss's own
// started/completed times), with how many people it told.

export const SAVED_SEARCHES = 10_000;
/** A person keeps at most this many (the app's limit). */
const PER_PERSON = 20;

export interface SavedSearchListingRun {
  matching: boolean;
  listings: number;
  errors: number;
  latencyMs: LatencySummary;
}

export interface SavedSearchResults {
  savedSearches: number;
  campus: string;
  listingsPerSecond: number;
  runs: SavedSearchListingRun[];
  /** The matching job's time per listing, from taking it to finishing it. */
  jobMs?: LatencySummary;
  jobs?: number;
  /** People told, over every listing of the matching run. */
  told?: number;
}

/** Inserts the saved searches straight into the database, spread over the campus's students. */
export async function seedSavedSearches(db: Db, fixtures: Fixtures, count = SAVED_SEARCHES) {
  const [first] = (
    await db.execute<{ campus: string }>(
      sql`select campus from users where id = ${fixtures.everyone[0]!.userId}`,
    )
  ).rows;
  const campus = first!.campus;
  const people = fixtures.everyone.map((p) => p.userId);
  const searches = campusSearches();
  const rows: { userId: string; query: string }[] = [];
  const used = new Map<string, Set<string>>();
  for (let n = 0; rows.length < count && n < count * 4; n++) {
    const userId = people[n % people.length]!;
    const query = searches[(n * 7919) % searches.length]!;
    const mine = used.get(userId) ?? new Set();
    if (mine.size >= PER_PERSON || mine.has(query)) continue;
    mine.add(query);
    used.set(userId, mine);
    rows.push({ userId, query });
  }
  const words = (q: string) =>
    q
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .slice(0, 8);
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000).filter((r) => words(r.query).length > 0);
    const values = batch.map((r) => {
      const w = words(r.query);
      return sql`(${r.userId}, ${campus}, ${r.query}, ${sql.param(w)}::text[], ${w[0]}, ${JSON.stringify([w, null, null, false])})`;
    });
    await db.execute(sql`
      insert into saved_searches (user_id, campus, search_query, words, lead_word, dedupe_key)
      values ${sql.join(values, sql`, `)} on conflict do nothing`);
  }
  const [counted] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from saved_searches`))
    .rows;
  return { campus, savedSearches: Number(counted?.n ?? 0) };
}

/** Posts new listings at a fixed rate for `seconds`, from random students; answers their times. */
export async function postListings(options: {
  url: string;
  fixtures: Fixtures;
  today: string;
  perSecond: number;
  seconds: number;
  firstListing: number;
  matching: boolean;
}): Promise<SavedSearchListingRun> {
  const { url, fixtures } = options;
  const latency = new Samples();
  let errors = 0;
  let next = options.firstListing;
  const total = Math.round(options.perSecond * options.seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const l = listingAt(next++);
    const person = fixtures.everyone[k % fixtures.everyone.length]!;
    const sent = performance.now();
    pending.push(
      fetch(`${url}/api/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url, cookie: person.cookie },
        body: JSON.stringify({
          title: l.title,
          description: l.description,
          category: l.category,
          condition: l.condition,
          pickupMethod: l.pickup,
          rentalPrice: l.priceCents ? centsToDecimal(l.priceCents) : '',
          rentalPeriod: l.period,
          depositAmount: l.depositCents ? centsToDecimal(l.depositCents) : '',
          pickupLocation: 'Student union, front desk',
          availableFrom: options.today,
          availableUntil: null,
          availableDays: l.days,
          images: [],
        }),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          if (response.status === 201) latency.push(performance.now() - sent);
          else errors++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(pending);
  return { matching: options.matching, listings: total, errors, latencyMs: latency.summary() };
}

/** The server's /metrics token for this scenario (the queue's backlog is read there). */
export const METRICS_TOKEN = 'bench-saved-searches-metrics';

/** Waits until the matching queue is empty (the server still running), or `timeoutMs` passes. */
export async function drained(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    }).catch(() => null);
    const text = response?.ok ? await response.text() : '';
    const waiting = [
      ...text.matchAll(
        /^campusloop_jobs\{queue="saved-search-matches",state="(created|retry|active)"\} (\d+)/gm,
      ),
    ]
      .map((m) => Number(m[2]))
      .reduce((a, b) => a + b, 0);
    if (response?.ok && waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The matching jobs' times, from pg-boss's rows (read after the server stopped). */
export async function matchingJobTimes(db: Db) {
  const times = new Samples();
  const { rows } = await db.execute<{ ms: number }>(sql`
    select extract(epoch from (completed_on - started_on)) * 1000 as ms from pgboss.job
    where name = 'saved-search-matches' and state = 'completed'`);
  for (const row of rows) times.push(Number(row.ms));
  const [told] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from saved_search_matches`))
    .rows;
  return { jobMs: times.summary(), jobs: rows.length, told: Number(told?.n ?? 0) };
}
