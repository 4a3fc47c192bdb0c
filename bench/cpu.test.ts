import { describe, expect, it } from 'vitest';
import { cpuSummary, startCpuWindow } from './cpu.ts';

// Where the CPU went, read from /proc: this process stands in for the server under test (it is also the
// load generator), so what it burns must show on both sides, and nothing on PostgreSQL's.

const spin = (ms: number) => {
  const until = performance.now() + ms;
  let x = 0;
  while (performance.now() < until) x += Math.sqrt(x + 1);
  return x;
};

describe('the bench’s CPU window', () => {
  it.runIf(process.platform === 'linux')(
    'counts a process’s own CPU time, and no backend of a database nobody uses',
    () => {
      const end = startCpuWindow(process.pid, 'campusloop_bench_nobody');
      spin(300);
      const use = end(30);
      // Clock ticks are hundredths of a second, and a busy host may give the spin less than all of a core.
      expect(use.serverMs).toBeGreaterThanOrEqual(100);
      expect(use.loadGeneratorMs).toBeGreaterThanOrEqual(100);
      expect(use.postgresMs).toBe(0);
      expect(use.seconds).toBeGreaterThanOrEqual(0.3);
      expect(use.requests).toBe(30);
    },
  );

  it('gives CPU ms a request and each part’s share of cores × seconds', () => {
    const summary = cpuSummary({
      seconds: 10,
      cores: 2,
      serverMs: 8000,
      postgresMs: 4000,
      loadGeneratorMs: 2000,
      otherMs: 1000,
      requests: 1000,
    });
    expect(summary.serverMsPerRequest).toBe(8);
    expect(summary.postgresMsPerRequest).toBe(4);
    expect(summary.serverShare).toBeCloseTo(0.4);
    expect(summary.postgresShare).toBeCloseTo(0.2);
    expect(summary.loadGeneratorShare).toBeCloseTo(0.1);
    expect(summary.otherShare).toBeCloseTo(0.05);
  });
});
