import { describe, expect, it } from 'vitest';
import { baselineBeside, shareOfBaseline } from './baseline-beside.ts';

// Each scenario read against bare Fastify measured on either side of it, so a host that slows down
// in the middle of a run does not show as a slower scenario.

/** A fake baseline whose windows answer the given rates in turn, and a log of what ran when. */
function windows(...rates: number[]) {
  const log: string[] = [];
  let i = 0;
  const measure = async () => {
    const rate = rates[i++];
    if (rate === undefined) throw new Error('more windows than expected');
    log.push(`baseline ${rate}`);
    return rate;
  };
  return { log, measure, used: () => i };
}

describe('the baseline beside each scenario', () => {
  it('measures a window before and after a scenario, and shares the one between two scenarios', async () => {
    const w = windows(10_000, 8_000, 6_001);
    const beside = baselineBeside(w.measure);
    const first = await beside(async () => {
      w.log.push('first');
      return 'a';
    });
    const second = await beside(async () => {
      w.log.push('second');
      return 'b';
    });
    expect(w.log).toEqual(['baseline 10000', 'first', 'baseline 8000', 'second', 'baseline 6001']);
    expect(first).toEqual({
      result: 'a',
      beside: { before: 10_000, after: 8_000, requestsPerSecond: 9_000 },
    });
    expect(second.beside).toEqual({ before: 8_000, after: 6_001, requestsPerSecond: 7_001 });
  });

  it('takes the window before from the scenario when it prepares first (the campus day’s warm-up)', async () => {
    const w = windows(10_000, 7_000, 5_000);
    const beside = baselineBeside(w.measure);
    const { beside: around } = await beside(async (measureJustBefore) => {
      w.log.push('warm-up');
      await measureJustBefore();
      w.log.push('window');
    });
    expect(w.log).toEqual(['baseline 10000', 'warm-up', 'baseline 7000', 'window', 'baseline 5000']);
    expect(around).toEqual({ before: 7_000, after: 5_000, requestsPerSecond: 6_000 });
  });

  it('measures no window after a scenario that failed, and the next one starts with a fresh window', async () => {
    const w = windows(10_000, 9_000, 8_000);
    const beside = baselineBeside(w.measure);
    await expect(
      beside(async () => {
        throw new Error('the server died');
      }),
    ).rejects.toThrow('the server died');
    const { beside: next } = await beside(async () => undefined);
    expect(next).toEqual({ before: 9_000, after: 8_000, requestsPerSecond: 8_500 });
    expect(w.used()).toBe(3);
  });

  it('reads a share against the windows beside the load, else against the run’s baseline', () => {
    const beside = { before: 6_000, after: 4_000, requestsPerSecond: 5_000 };
    expect(shareOfBaseline({ requestsPerSecond: 750, beside }, 10_000)).toBe(0.15);
    expect(shareOfBaseline({ requestsPerSecond: 750 }, 10_000)).toBe(0.075);
    expect(shareOfBaseline({ requestsPerSecond: 750 }, 0)).toBe(0);
  });
});
