// The campus day's catalogue hit ratios, modelled with the app's own read cache (decision 049): the
// readers' keys as bench/scenarios/campus-day.ts draws them, new listings at the campus day's share of
// the writes, in simulated time, so no machine load changes the figures. "before" tags lists and
// searches by campus as decision 016 did (a new listing empties its campus's lists, every campus's
// lists and every search); "first pages" is the app's tagging and invalidation with new listings put
// on first pages only (decision 083), and "after" as they are now, later pages moved on too (decision
// 085: each as many times as it read items before it). A page is revised only if its statement counted
// its total, or it has none, as in the app. What the
// model leaves out: time spent computing (every miss answers at once, so no stale answer is served
// while one is computed) and the changes a search's own items go through (no edits or bookings going
// out in the campus day's write mix).
//
//   node --import ./scripts/lingui-register.mjs --import tsx bench/cache-model.ts [--reads 500] [--seconds 120] [--ttl 30]

import { parseArgs } from 'node:util';
import { ReadCache } from '#server/cache/read-cache.ts';
import { createReadCaches, invalidateOnChanges } from '#server/cache/read-caches.ts';
import { listTags, searchTags } from '#server/cache/tags.ts';
import type { RealtimeHub } from '#server/db/realtime-hub.ts';
import { PAGE_BEFORE_ITEMS } from '#server/features/items/queries.ts';
import { type Listing, listingAt } from './catalogue.ts';
import type { Fixtures } from './fixtures.ts';
import { seededRandom } from './popularity.ts';
import { campusReader, READ_MIX } from './scenarios/campus-day.ts';
import { WRITE_MIX } from './scenarios/campus-day-writes.ts';

const { values } = parseArgs({
  options: {
    reads: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '120' },
    ttl: { type: 'string', default: '30' },
  },
});
const READS_PER_SECOND = Number(values.reads);
const SECONDS = Number(values.seconds);
const TTL_MS = Number(values.ttl) * 1000;
const CAMPUSES = ['stanford.edu', 'berkeley.edu', 'ucla.edu', 'mit.edu'];
const LISTING_SHARE = WRITE_MIX.listing / Object.values(WRITE_MIX).reduce((sum, n) => sum + n, 0);
const CATALOGUE_SHARE = READ_MIX.home + READ_MIX.browse + READ_MIX.search;

const fixtures = {
  campuses: CAMPUSES,
  everyItemId: ['i'],
  everyone: [{ userId: 'u', cookie: '', email: '', campus: CAMPUSES[0] }],
} as unknown as Fixtures;

type Scheme = 'before' | 'first pages' | 'after';
/**
 * What the model remembers of an answer: its tags, and whether a new listing is put on it in place
 * (a later page: how many more times, one for each item before it left).
 */
type ModelAnswer = { tags: readonly string[]; newestFirst?: { before?: number } };
type Kind = 'home' | 'browse' | 'search';

/** Tags and invalidation of one scheme over one catalogue cache. */
function modelOf(scheme: Scheme, now: () => number) {
  if (scheme !== 'before') {
    const caches = createReadCaches(TTL_MS);
    const catalogue = new ReadCache<ModelAnswer>({
      maxEntries: 50_000,
      ttlMs: TTL_MS,
      serveStale: true,
      now,
    });
    const counts = new ReadCache<ModelAnswer>({ maxEntries: 20_000, ttlMs: TTL_MS, now });
    caches.catalogue = catalogue as unknown as typeof caches.catalogue;
    caches.counts = counts as unknown as typeof caches.counts;
    let announce: (tags: string[]) => void = () => {};
    const hub = {
      observeChanges: (observer: (tags: string[]) => void) => {
        announce = observer;
        return () => {};
      },
      observeEvents: () => () => {},
      observeStatus: () => () => {},
    } as unknown as RealtimeHub;
    // A new listing goes onto the pages of the newest-first lists it enters (decisions 083 and 085).
    invalidateOnChanges(caches, hub, () => (answer) => {
      const page = (answer as ModelAnswer).newestFirst;
      if (!page) return undefined;
      if (page.before === undefined) return async () => answer;
      const revised: ModelAnswer = { ...answer, newestFirst: { before: page.before - 1 } };
      return async () => (page.before ? (revised as unknown as typeof answer) : undefined);
    });
    return {
      catalogue,
      counts: counts as ReadCache<ModelAnswer> | undefined,
      tagsOf: (query: URLSearchParams) =>
        query.get('searchQuery')
          ? searchTags([])
          : listTags({
              campus: query.get('campus') ?? undefined,
              category: query.get('category') ?? undefined,
              freeOnly: query.get('freeOnly') === 'true',
              maxPrice: query.has('maxPrice') ? Number(query.get('maxPrice')) : undefined,
              pickupMethod: query.get('pickupMethod') ?? undefined,
            }),
      /** A list's page, newest first, which a new listing is put on in place. */
      newestFirst: (query: URLSearchParams): ModelAnswer['newestFirst'] => {
        if (query.get('searchQuery') || query.get('sort')) return undefined;
        const first = (query.get('page') ?? '1') === '1';
        if (first) return {};
        return scheme === 'after' ? { before: PAGE_BEFORE_ITEMS } : undefined;
      },
      // As migration 0055 announces a new listing: the lists it meets the filters of are dropped, or
      // revised in place.
      listed: (campus: string, category: string, listing: Listing, id: string) =>
        announce([
          `list:${campus}`,
          `list:${campus}:${category}:new:${listing.priceCents ?? ''}:${listing.pickup}:${id}`,
        ]),
    };
  }
  const catalogue = new ReadCache<ModelAnswer>({ maxEntries: 5000, ttlMs: TTL_MS, now });
  const campusTag = (campus: string | null) => `list:${!campus || campus === 'all' ? '*' : campus}`;
  return {
    catalogue,
    // Counted with every page computed.
    counts: undefined as ReadCache<ModelAnswer> | undefined,
    tagsOf: (query: URLSearchParams) => [campusTag(query.get('campus')), 'lists'],
    newestFirst: (_query: URLSearchParams): ModelAnswer['newestFirst'] => undefined,
    listed: (campus: string, _category: string, _listing: Listing, _id: string) => {
      catalogue.invalidate(campusTag(campus));
      catalogue.invalidate(campusTag('all'));
    },
  };
}

async function run(scheme: Scheme, writesPerSecond: number) {
  let now = 0;
  const model = modelOf(scheme, () => now);
  const reader = campusReader(fixtures);
  const random = seededRandom(49);
  const counts = { home: [0, 0], browse: [0, 0], search: [0, 0] } as Record<Kind, [number, number]>;
  let countsComputed = 0;
  const catalogueReads = (READS_PER_SECOND * CATALOGUE_SHARE) / 100;
  const listingsPerSecond = writesPerSecond * LISTING_SHARE;
  const step = 1000 / catalogueReads;
  let nextListingNumber = 0;
  let nextListing = listingsPerSecond > 0 ? 1000 / listingsPerSecond : Number.POSITIVE_INFINITY;
  // A warm-up as long as the time limit, then the measured window.
  for (now = 0; now < SECONDS * 1000 + TTL_MS; now += step) {
    while (nextListing <= now) {
      const number = nextListingNumber++;
      const listing = listingAt(number);
      const id = `00000000-0000-4000-8000-${String(number).padStart(12, '0')}`;
      model.listed(CAMPUSES[Math.floor(random() * CAMPUSES.length)]!, listing.category, listing, id);
      nextListing += 1000 / listingsPerSecond;
    }
    const r = random() * CATALOGUE_SHARE;
    const kind: Kind = r < READ_MIX.home ? 'home' : r < READ_MIX.home + READ_MIX.browse ? 'browse' : 'search';
    const { path } = reader.request(kind);
    const query = new URLSearchParams(path.split('?')[1]);
    let missed = false;
    let counted = false;
    // Revisable if its own statement counted its total (the count was not remembered), or it has none.
    const answerOf = (query: URLSearchParams, revisable: boolean): ModelAnswer => {
      const newestFirst = revisable ? model.newestFirst(query) : undefined;
      return { tags: model.tagsOf(query), ...(newestFirst ? { newestFirst } : {}) };
    };
    await model.catalogue.get(
      path,
      async () => {
        missed = true;
        // Before, every page was counted, Home's too.
        if (!model.counts) counted = true;
        else if (query.get('skipTotal')) return answerOf(query, true);
        else {
          const filter = new URLSearchParams(query);
          for (const name of ['page', 'limit']) filter.delete(name);
          await model.counts.get(
            filter.toString(),
            async () => {
              counted = true;
              return { tags: query.get('searchQuery') ? ['lists'] : model.tagsOf(query) };
            },
            (answer) => answer.tags,
          );
        }
        return answerOf(query, counted);
      },
      (answer) => answer.tags,
    );
    if (now >= TTL_MS) {
      counts[kind][missed ? 1 : 0]++;
      if (counted) countsComputed++;
    }
  }
  const ratio = ([hits, misses]: [number, number]) => (hits / (hits + misses)).toFixed(2);
  return {
    home: ratio(counts.home),
    browse: ratio(counts.browse),
    search: ratio(counts.search),
    countsPerSecond: (countsComputed / SECONDS).toFixed(1),
  };
}

console.log(
  `catalogue hit ratios: ${READS_PER_SECOND} reads/s (${CATALOGUE_SHARE} % Home, Browse and search), ` +
    `${SECONDS} s after a ${TTL_MS / 1000} s warm-up, time limit ${TTL_MS / 1000} s, ` +
    `new listings ${Math.round(LISTING_SHARE * 100)} % of the writes\n`,
);
console.log('| scheme | writes/s | Home | Browse | search | counts computed/s |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const scheme of ['before', 'first pages', 'after'] as const) {
  for (const writes of [0, 5, 25]) {
    const r = await run(scheme, writes);
    console.log(`| ${scheme} | ${writes} | ${r.home} | ${r.browse} | ${r.search} | ${r.countsPerSecond} |`);
  }
}
