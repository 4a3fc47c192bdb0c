import { type LoadResult, type RequestSpec, runLoad } from './load.ts';

// A campus day is measured on a server that has been running: its caches hold what a campus has been
// asking, less what the writes made stale. How long that takes depends on the host (a slow one answers
// fewer reads a second, so meets fewer keys in the same time), so the warm-up runs until the catalogue's
// hit ratio stops rising rather than for a fixed time; it ends at the longest an answer is kept, when
// nothing the first reads remembered is left anyway. A fixed warm-up is still there for the first
// seconds after a restart (decision 087).

/** How a campus-day window is prepared: until the caches are steady, or for a fixed time. */
export type WarmupPlan =
  | {
      kind: 'steady';
      /** At least this long, so the window's own write rate has worked on the caches. */
      minSeconds: number;
      /** At most this long: the longest the caches keep an announced answer. */
      maxSeconds: number;
      /** The hit ratio is read after each slice of this many seconds. */
      sliceSeconds: number;
      /** Steady once a slice's catalogue hit ratio is no more than this above the slice before. */
      tolerance: number;
    }
  | { kind: 'fixed'; seconds: number };

/** What a warm-up did, for the report: how long, how many reads, and the catalogue's hits at its end. */
export interface WarmupDone {
  kind: WarmupPlan['kind'];
  seconds: number;
  requests: number;
  /** The catalogue's hit ratio over the warm-up's last slice (null when not read). */
  lastSliceHitRatio: number | null;
  /** Whether the hit ratio stopped rising (false: a fixed warm-up, or the steady one ran to its cap). */
  steady: boolean;
}

/** A catalogue's counters as /metrics gives them. */
export interface CatalogueCounters {
  hits: number;
  misses: number;
}

/**
 * `--campus-warmup`: `steady` (the default) or a number of seconds. `cacheSeconds` is the caches' time
 * limit (READ_CACHE_SECONDS), `announcedSeconds` the longest an announced answer is kept
 * (READ_CACHE_ANNOUNCED_SECONDS).
 */
export function parseCampusWarmup(
  value: string,
  defaults: { cacheSeconds: number; announcedSeconds: number },
): WarmupPlan {
  if (value === 'steady') {
    return {
      kind: 'steady',
      minSeconds: defaults.cacheSeconds,
      maxSeconds: defaults.announcedSeconds,
      sliceSeconds: 15,
      tolerance: 0.01,
    };
  }
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`--campus-warmup must be "steady" or a number of seconds, not "${value}"`);
  }
  return { kind: 'fixed', seconds };
}

/** The share of lookups that hit between two readings of the catalogue's counters. */
export function hitRatioBetween(before: CatalogueCounters, after: CatalogueCounters): number | null {
  const hits = after.hits - before.hits;
  const lookups = hits + after.misses - before.misses;
  return lookups > 0 ? hits / lookups : null;
}

/**
 * Whether a steady warm-up is done after `elapsedSeconds`, given each slice's hit ratio so far: at its
 * cap; or past its least, once the last slice rose no more than the tolerance over the one before.
 */
export function warmedUp(
  plan: Extract<WarmupPlan, { kind: 'steady' }>,
  elapsedSeconds: number,
  sliceHitRatios: readonly (number | null)[],
): { done: boolean; steady: boolean } {
  const [previous, last] = sliceHitRatios.slice(-2);
  const levelled =
    elapsedSeconds >= plan.minSeconds &&
    previous != null &&
    last != null &&
    last - previous <= plan.tolerance;
  if (levelled) return { done: true, steady: true };
  return { done: elapsedSeconds >= plan.maxSeconds, steady: false };
}

/**
 * Runs the readers (the writers run alongside, started by the caller) as the plan says. A steady
 * warm-up reads the catalogue's counters between slices, so it needs them.
 */
export async function warmUp(options: {
  url: string;
  connections: number;
  request: (n: number) => RequestSpec;
  plan: WarmupPlan;
  readCatalogue?: () => Promise<CatalogueCounters>;
  /** Told after each slice (the bench's log line). */
  onSlice?: (elapsedSeconds: number, hitRatio: number | null) => void;
  /** The load itself (autocannon); tests give their own. */
  load?: (seconds: number) => Promise<Pick<LoadResult, 'requests'>>;
}): Promise<WarmupDone> {
  const { plan } = options;
  const load =
    options.load ??
    ((seconds: number) =>
      runLoad({ url: options.url, connections: options.connections, seconds, request: options.request }));
  if (plan.kind === 'fixed') {
    const requests = plan.seconds > 0 ? (await load(plan.seconds)).requests : 0;
    return { kind: 'fixed', seconds: plan.seconds, requests, lastSliceHitRatio: null, steady: false };
  }
  const read = options.readCatalogue;
  if (!read)
    throw new Error('a steady warm-up reads the catalogue counters: give the server a METRICS_TOKEN');
  const ratios: (number | null)[] = [];
  let elapsed = 0;
  let requests = 0;
  let before = await read();
  for (;;) {
    const seconds = Math.min(plan.sliceSeconds, plan.maxSeconds - elapsed);
    requests += (await load(seconds)).requests;
    elapsed += seconds;
    const after = await read();
    ratios.push(hitRatioBetween(before, after));
    before = after;
    options.onSlice?.(elapsed, ratios.at(-1) ?? null);
    const { done, steady } = warmedUp(plan, elapsed, ratios);
    if (done)
      return { kind: 'steady', seconds: elapsed, requests, lastSliceHitRatio: ratios.at(-1) ?? null, steady };
  }
}
