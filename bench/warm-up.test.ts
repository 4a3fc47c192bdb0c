import { describe, expect, it } from 'vitest';
import { hitRatioBetween, parseCampusWarmup, type WarmupPlan, warmedUp, warmUp } from './warm-up.ts';

// The campus day's warm-up runs until the catalogue's hit ratio levels off, between the caches' time
// limit and the longest an announced answer is kept: driven here by a fake load and fake counters.

const DEFAULTS = { cacheSeconds: 30, announcedSeconds: 600 };
const steady = parseCampusWarmup('steady', DEFAULTS) as Extract<WarmupPlan, { kind: 'steady' }>;

/** Counters that hit at each slice's given ratio over 1,000 lookups a slice. */
function catalogueHitting(ratios: readonly number[]) {
  let slice = -1;
  let hits = 0;
  let misses = 0;
  return {
    read: async () => {
      if (slice >= 0) {
        const ratio = ratios[Math.min(slice, ratios.length - 1)]!;
        hits += Math.round(ratio * 1000);
        misses += 1000 - Math.round(ratio * 1000);
      }
      return { hits, misses };
    },
    load: async (seconds: number) => {
      slice++;
      return { requests: seconds * 100 };
    },
  };
}

describe('the campus day’s warm-up', () => {
  it('reads "steady" as the caches’ limits, and a number as fixed seconds', () => {
    expect(steady).toEqual({
      kind: 'steady',
      minSeconds: 30,
      maxSeconds: 600,
      sliceSeconds: 15,
      tolerance: 0.01,
    });
    expect(parseCampusWarmup('30', DEFAULTS)).toEqual({ kind: 'fixed', seconds: 30 });
    expect(parseCampusWarmup('0', DEFAULTS)).toEqual({ kind: 'fixed', seconds: 0 });
    expect(() => parseCampusWarmup('soon', DEFAULTS)).toThrow(/steady/);
    expect(() => parseCampusWarmup('-5', DEFAULTS)).toThrow(/steady/);
  });

  it('counts hits over lookups between two readings, and nothing when nothing was looked up', () => {
    expect(hitRatioBetween({ hits: 10, misses: 10 }, { hits: 40, misses: 20 })).toBe(0.75);
    expect(hitRatioBetween({ hits: 10, misses: 10 }, { hits: 10, misses: 10 })).toBeNull();
  });

  it('is done once the hit ratio stops rising, but not before the caches’ time limit', () => {
    // Levelled at 15 s, but the window's writes have not yet had 30 s on the caches.
    expect(warmedUp(steady, 15, [0.5, 0.505])).toEqual({ done: false, steady: false });
    expect(warmedUp(steady, 30, [0.5, 0.505])).toEqual({ done: true, steady: true });
    expect(warmedUp(steady, 45, [0.5, 0.7, 0.8])).toEqual({ done: false, steady: false });
    // A slice that fell (writes emptying answers) is levelled too.
    expect(warmedUp(steady, 60, [0.7, 0.8, 0.78])).toEqual({ done: true, steady: true });
    // Still rising at the cap: done, but not steady.
    expect(warmedUp(steady, 600, [0.7, 0.8])).toEqual({ done: true, steady: false });
    // A slice without lookups says nothing.
    expect(warmedUp(steady, 60, [0.8, null])).toEqual({ done: false, steady: false });
  });

  it('runs slices until the catalogue’s hits level off, and says how long and how many reads', async () => {
    const catalogue = catalogueHitting([0.4, 0.6, 0.75, 0.85, 0.9, 0.905, 0.9]);
    const slices: number[] = [];
    const done = await warmUp({
      url: 'http://unused',
      connections: 1,
      request: () => ({ path: '/' }),
      plan: steady,
      readCatalogue: catalogue.read,
      load: catalogue.load,
      onSlice: (elapsed) => slices.push(elapsed),
    });
    expect(slices).toEqual([15, 30, 45, 60, 75, 90]);
    expect(done).toEqual({
      kind: 'steady',
      seconds: 90,
      requests: 9000,
      lastSliceHitRatio: 0.905,
      steady: true,
    });
  });

  it('stops at the longest an answer is kept when the hits never level off', async () => {
    const rising = Array.from({ length: 50 }, (_, i) => i / 50);
    const catalogue = catalogueHitting(rising);
    const plan = { ...steady, maxSeconds: 100 };
    const done = await warmUp({
      url: 'http://unused',
      connections: 1,
      request: () => ({ path: '/' }),
      plan,
      readCatalogue: catalogue.read,
      load: catalogue.load,
    });
    // 15 s slices, the last cut to what the cap leaves.
    expect(done).toMatchObject({ seconds: 100, requests: 10_000, steady: false });
  });

  it('runs a fixed warm-up once, without reading the counters', async () => {
    let loads = 0;
    const done = await warmUp({
      url: 'http://unused',
      connections: 1,
      request: () => ({ path: '/' }),
      plan: { kind: 'fixed', seconds: 30 },
      load: async (seconds) => {
        loads++;
        return { requests: seconds * 10 };
      },
    });
    expect(loads).toBe(1);
    expect(done).toEqual({
      kind: 'fixed',
      seconds: 30,
      requests: 300,
      lastSliceHitRatio: null,
      steady: false,
    });
  });

  it('refuses a steady warm-up it cannot measure', async () => {
    await expect(
      warmUp({ url: 'http://unused', connections: 1, request: () => ({ path: '/' }), plan: steady }),
    ).rejects.toThrow(/METRICS_TOKEN/);
  });
});
