import http from 'node:http';
import { CATEGORIES, PICKUP_METHODS } from '#shared/constants.ts';
import { type CpuUse, startCpuWindow } from '../cpu.ts';
import type { Fixtures } from '../fixtures.ts';
import { type LoadResult, type RequestSpec, runLoad } from '../load.ts';
import { seededRandom, Zipf } from '../popularity.ts';
import { campusSearches } from '../search-queries.ts';
import { type WarmupDone, type WarmupPlan, warmUp } from '../warm-up.ts';
import { startWriters, type WriteResult } from './campus-day-writes.ts';
import { itemsPath } from './http.ts';

// A campus day: readers over many connections asking what students ask — thousands of
// different searches, every item page, every profile, every person's unread polls, Browse with every
// filter and its first pages — while writers chat, mark things read, ask to borrow, list and sign in
// at a fixed rate. Unlike the issue-7 scenarios, the keys are too many and change too often for the
// read caches to answer everything, so this measures what students would see.

export const READ_CLASSES = ['home', 'browse', 'search', 'item', 'profile', 'polls'] as const;
export type ReadClass = (typeof READ_CLASSES)[number];

/**
 * Share of the reads per class: every open tab polls both unread counts on a timer, so polls are the
 * most; then the pages people open (items, searches, Browse, Home) and, least, someone's profile.
 */
export const READ_MIX: Record<ReadClass, number> = {
  polls: 30,
  item: 20,
  search: 20,
  browse: 15,
  home: 10,
  profile: 5,
};

/** Browse's pages 1–6, the first ones far more often (most people never scroll past the second). */
const PAGE_WEIGHTS = [50, 20, 12, 8, 6, 4];
/** Price caps people choose in the filter, in dollars. */
const MAX_PRICES = [5, 10, 20, 50];
/** Zipf exponents: searches as in search logs; items a little flatter (people open what they find). */
const SEARCH_SKEW = 1;
const ITEM_SKEW = 0.8;

export interface CampusReader {
  searches: readonly string[];
  /** A request of this class, or of the campus-day mix. */
  request(cls?: ReadClass): RequestSpec;
}

export function campusReader(fixtures: Fixtures, seed = 13): CampusReader {
  const random = seededRandom(seed);
  const searches = campusSearches();
  const searchRank = new Zipf(searches.length, SEARCH_SKEW);
  // Items ranked by a hash of their id (fixtures order them so): popularity unrelated to age or owner.
  const itemRank = new Zipf(fixtures.everyItemId.length, ITEM_SKEW);
  const campuses = ['all', ...fixtures.campuses];
  const any = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const weighted = (weights: readonly number[]) => {
    let r = random() * weights.reduce((s, w) => s + w, 0);
    for (const [i, w] of weights.entries()) {
      r -= w;
      if (r < 0) return i;
    }
    return 0;
  };
  const mixWeights = READ_CLASSES.map((c) => READ_MIX[c]);

  const build: Record<ReadClass, () => RequestSpec> = {
    // A visitor's Home shows every campus, a signed-in student's their own (spec §2).
    // Home shows no count, and asks for none (decision 049).
    home: () => ({
      path: itemsPath({ campus: any(campuses), availableNow: true, skipTotal: true, page: 1, limit: 8 }),
    }),
    // Each filter set or not independently, as people combine them; only truthy values are sent.
    browse: () => ({
      path: itemsPath({
        campus: any(campuses),
        category: random() < 0.4 ? any(CATEGORIES) : undefined,
        freeOnly: random() < 0.15,
        maxPrice: random() < 0.25 ? any(MAX_PRICES) : undefined,
        pickupMethod: random() < 0.15 ? any(PICKUP_METHODS) : undefined,
        availableNow: random() < 0.8,
        page: 1 + weighted(PAGE_WEIGHTS),
        limit: 12,
      }),
    }),
    search: () => ({
      path: itemsPath({
        campus: random() < 0.7 ? 'all' : any(fixtures.campuses),
        searchQuery: searches[searchRank.rank(random())],
        availableNow: random() < 0.8,
        page: random() < 0.85 ? 1 : 2,
        limit: 12,
      }),
    }),
    item: () => ({ path: `/api/items/${fixtures.everyItemId[itemRank.rank(random())]}` }),
    profile: () => ({ path: `/api/users/${any(fixtures.everyone).userId}` }),
    polls: () => {
      const person = any(fixtures.everyone);
      return {
        path: random() < 0.5 ? '/api/notifications/unread' : '/api/conversations/unread-count',
        headers: { cookie: person.cookie },
      };
    },
  };

  return {
    searches,
    request(cls) {
      const chosen = cls ?? READ_CLASSES[weighted(mixWeights)]!;
      return { ...build[chosen](), label: chosen };
    },
  };
}

/**
 * Reads a few of each class through fetch before the load: any answer other than 2xx stops the run
 * (a 4xx here is a bench bug, not a slow server). Returns how many of a sample of searches, the most
 * popular and some others, find items: searches made of the catalogue's words should mostly match.
 */
export async function preflightCampusDay(
  url: string,
  reader: CampusReader,
  classes: readonly ReadClass[] = READ_CLASSES,
): Promise<{ searchesSampled: number; searchesFinding: number }> {
  const get = async (spec: RequestSpec) => {
    const response = await fetch(`${url}${spec.path}`, {
      headers: { accept: 'application/json', ...spec.headers },
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${spec.label}: ${spec.path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as { items?: unknown[] };
  };
  for (const cls of classes) for (let i = 0; i < 5; i++) await get(reader.request(cls));
  if (!classes.includes('search')) return { searchesSampled: 0, searchesFinding: 0 };
  const sample = [...reader.searches.slice(0, 30), ...reader.searches.filter((_, i) => i % 200 === 199)];
  let finding = 0;
  for (const q of sample) {
    const body = await get({
      path: itemsPath({ campus: 'all', searchQuery: q, page: 1, limit: 12 }),
      label: 'search',
    });
    if (body.items?.length) finding++;
  }
  if (finding < sample.length / 2) {
    throw new Error(`campus-day: only ${finding} of ${sample.length} sampled searches find items`);
  }
  return { searchesSampled: sample.length, searchesFinding: finding };
}

/**
 * Waits until the server has worked off what the last load left behind, so it does not land in the
 * next run's window: up to one request per connection in flight, and on a server too busy to accept
 * (the embedded database runs queries on the server's only thread) connections still waiting in the
 * kernel's accept queue, each with its request, which the server will accept and answer although
 * autocannon has hung up. The settle request therefore comes on a connection of its own, queued behind
 * those, and is a search nobody has made, which misses every cache and queues for the database behind
 * theirs. Gives up, saying so, after `timeoutMs`.
 */
export async function settle(url: string, timeoutMs = 180_000): Promise<void> {
  const nonce = `settle${Date.now().toString(36)}`;
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const request = http.get(
      `${url}${itemsPath({ campus: 'all', searchQuery: nonce, page: 1, limit: 1 })}`,
      { agent: false, timeout: timeoutMs },
      (response) => {
        response.resume();
        response.on('end', resolve);
        response.on('error', reject);
      },
    );
    request.on('timeout', () => {
      request.destroy();
      console.warn(
        `[bench] the server did not settle within ${timeoutMs / 1000} s; the next run starts anyway`,
      );
      resolve();
    });
    request.on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  if (seconds > 5) console.log(`[bench] settling took ${seconds.toFixed(1)} s (a backlog the last run left)`);
}

export interface CampusDayRun {
  /** The writers' fixed rate. */
  writesPerSecond: number;
  reads: LoadResult;
  writes: WriteResult;
  /** What ran before the window (older results did not record it). */
  warmup?: WarmupDone;
  /**
   * Per read cache, its lookups during the measured window and the share answered without the
   * database (hits / (hits + misses), null without lookups). Absent without the server's metrics token.
   */
  caches?: Record<string, CacheLookups>;
  /** Where the CPU went over the measured window (with the server's process id given). */
  cpu?: CpuUse;
  /**
   * The server's garbage collection over the window, in milliseconds a second, by kind (prom-client's
   * `nodejs_gc_duration_seconds`): what a heap of remembered answers costs. Absent without the token.
   */
  gc?: GcTime;
  /**
   * The server's memory as the window ended, in bytes (prom-client's process and heap gauges): beside
   * what the catalogue counts for its answers, what they really hold. Absent without the token.
   */
  memory?: ServerMemory;
}

export interface ServerMemory {
  resident: number;
  heapUsed: number;
  /** Buffers and other memory outside V8's heap (compressed answers among them). */
  external: number;
}

export interface GcTime {
  msPerSecond: number;
  byKind: Record<string, number>;
}

export interface CacheLookups {
  hits: number;
  misses: number;
  hitRatio: number | null;
  /** What the cache held as the window ended: answers, and bytes for a cache bounded by size. */
  entries?: number;
  bytes?: number;
}

/** The /metrics token the campus day's server is started with, so its cache counters can be read. */
export const CAMPUS_DAY_METRICS_TOKEN = 'bench-campus-day-metrics-token';

type CacheReading = { hits: number; misses: number; entries?: number; bytes?: number };

/** What the server's /metrics says now: its read caches' counters and its garbage collection. */
interface ServerReading {
  caches: Record<string, CacheReading>;
  /** Seconds spent collecting garbage since the server started, by kind. */
  gcSeconds: Record<string, number>;
  memory: ServerMemory | undefined;
}

/** A gauge's value in prom-client's text, or undefined. */
const gauge = (text: string, name: string) => {
  const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
};

/** The process's memory gauges, when /metrics has all three. */
export function memoryIn(text: string): ServerMemory | undefined {
  const resident = gauge(text, 'process_resident_memory_bytes');
  const heapUsed = gauge(text, 'nodejs_heap_size_used_bytes');
  const external = gauge(text, 'nodejs_external_memory_bytes');
  if (resident === undefined || heapUsed === undefined || external === undefined) return undefined;
  return { resident, heapUsed, external };
}

async function readServerMetrics(url: string, token: string): Promise<ServerReading> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`/metrics answered ${response.status}: ${text.slice(0, 200)}`);
  const gcSeconds: Record<string, number> = {};
  for (const [, kind, value] of text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="([^"]+)"\} (\S+)$/gm)) {
    gcSeconds[kind!] = Number(value);
  }
  return { caches: cacheCountersIn(text), gcSeconds, memory: memoryIn(text) };
}

/** The garbage collection between two readings, in milliseconds a second of `seconds`. */
export function gcTimeBetween(
  before: Record<string, number>,
  after: Record<string, number>,
  seconds: number,
): GcTime {
  const byKind: Record<string, number> = {};
  for (const [kind, total] of Object.entries(after)) {
    byKind[kind] = ((total - (before[kind] ?? 0)) * 1000) / seconds;
  }
  return { msPerSecond: Object.values(byKind).reduce((sum, ms) => sum + ms, 0), byKind };
}

/**
 * The server's cache counters now (`campusloop_cache_hits_total` and `_misses_total`, by cache), and
 * what each holds (`campusloop_cache_entries` and `_bytes`).
 */
export async function readCacheCounters(url: string, token: string): Promise<Record<string, CacheReading>> {
  return (await readServerMetrics(url, token)).caches;
}

function cacheCountersIn(text: string): Record<string, CacheReading> {
  const counters: Record<string, CacheReading> = {};
  const field = { hits_total: 'hits', misses_total: 'misses', entries: 'entries', bytes: 'bytes' } as const;
  for (const [, kind, cache, value] of text.matchAll(
    /^campusloop_cache_(hits_total|misses_total|entries|bytes)\{cache="([^"]+)"\} (\S+)$/gm,
  )) {
    counters[cache!] ??= { hits: 0, misses: 0 };
    counters[cache!]![field[kind as keyof typeof field]] = Number(value);
  }
  return counters;
}

/** Each cache's lookups between two readings of its counters, with the share that hit, and what it held. */
export function cacheLookupsBetween(
  before: Record<string, CacheReading>,
  after: Record<string, CacheReading>,
): Record<string, CacheLookups> {
  const lookups: Record<string, CacheLookups> = {};
  for (const [cache, now] of Object.entries(after)) {
    const hits = now.hits - (before[cache]?.hits ?? 0);
    const misses = now.misses - (before[cache]?.misses ?? 0);
    lookups[cache] = {
      hits,
      misses,
      hitRatio: hits + misses ? hits / (hits + misses) : null,
      ...(now.entries === undefined ? {} : { entries: now.entries }),
      ...(now.bytes ? { bytes: now.bytes } : {}),
    };
  }
  return lookups;
}

/**
 * One campus-day run: a warm-up with the same readers and writers, then the measured window, reads and
 * writes together. Reads are autocannon's over `connections`; writes go on their own connections.
 */
export async function runCampusDay(options: {
  url: string;
  fixtures: Fixtures;
  reader: CampusReader;
  connections: number;
  seconds: number;
  warmup: WarmupPlan;
  writesPerSecond: number;
  today: string;
  firstNewListing: number;
  /** Told after each slice of a steady warm-up. */
  onWarmupSlice?: (elapsedSeconds: number, catalogueHitRatio: number | null) => void;
  /** The server's METRICS_TOKEN: the run reports its read caches' hit ratios. */
  metricsToken?: string;
  /** The server's process and its PostgreSQL database, to say where the CPU went (bench/cpu.ts). */
  cpu?: { serverPid: number; database?: string };
  /** Run once the caches are warm, right before the measured window (a baseline window beside it). */
  beforeWindow?: () => Promise<void>;
}): Promise<CampusDayRun> {
  const { url, fixtures, reader, connections } = options;
  const writers = (seed: number) =>
    startWriters({
      url,
      fixtures,
      perSecond: options.writesPerSecond,
      today: options.today,
      firstNewListing: options.firstNewListing + seed * 100_000,
      seed,
    });
  const request = () => reader.request();
  const token = options.metricsToken;
  const warms = options.warmup.kind === 'steady' || options.warmup.seconds > 0;
  const warm = warms ? writers(options.writesPerSecond * 2 + 1) : undefined;
  const warmup = await warmUp({
    url,
    connections,
    request,
    plan: options.warmup,
    ...(token
      ? {
          readCatalogue: async () => {
            const catalogue = (await readServerMetrics(url, token)).caches.catalogue;
            if (!catalogue) throw new Error('/metrics has no catalogue counters');
            return catalogue;
          },
        }
      : {}),
    ...(options.onWarmupSlice ? { onSlice: options.onWarmupSlice } : {}),
  });
  if (warm) {
    await warm.stop();
    await settle(url);
  }
  await options.beforeWindow?.();
  const before = token ? await readServerMetrics(url, token) : undefined;
  const window = options.cpu && startCpuWindow(options.cpu.serverPid, options.cpu.database);
  const measured = writers(options.writesPerSecond * 2 + 2);
  const reads = await runLoad({ url, connections, seconds: options.seconds, request, byLabel: true });
  const cpu = window?.(reads.requests);
  const writes = await measured.stop();
  // Read as the window ends: the settling request below is a search nobody makes (a miss by design).
  const after = token ? await readServerMetrics(url, token) : undefined;
  await settle(url);
  return {
    writesPerSecond: options.writesPerSecond,
    reads,
    writes,
    warmup,
    ...(before && after
      ? {
          caches: cacheLookupsBetween(before.caches, after.caches),
          gc: gcTimeBetween(before.gcSeconds, after.gcSeconds, reads.seconds),
          ...(after.memory ? { memory: after.memory } : {}),
        }
      : {}),
    ...(cpu ? { cpu } : {}),
  };
}

/** One read class alone (the caches-off runs): its own keys over `connections`, after a warm-up. */
export async function runReadClass(
  cls: ReadClass,
  options: {
    url: string;
    reader: CampusReader;
    connections: number;
    seconds: number;
    warmupSeconds: number;
    /** The server's process and its PostgreSQL database, to say where the CPU went (bench/cpu.ts). */
    cpu?: { serverPid: number; database?: string };
  },
): Promise<LoadResult & { cpu?: CpuUse }> {
  const { url, reader, connections } = options;
  const request = () => reader.request(cls);
  if (options.warmupSeconds > 0) {
    await runLoad({ url, connections, seconds: options.warmupSeconds, request });
    await settle(url);
  }
  const window = options.cpu && startCpuWindow(options.cpu.serverPid, options.cpu.database);
  const result = await runLoad({ url, connections, seconds: options.seconds, request, byLabel: true });
  const cpu = window?.(result.requests);
  await settle(url);
  return cpu ? { ...result, cpu } : result;
}
