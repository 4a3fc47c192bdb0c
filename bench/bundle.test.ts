import { describe, expect, it } from 'vitest';
import {
  checkBundleBudgets,
  checkLazyModules,
  firstLoadFiles,
  type Manifest,
  measureRoutes,
  routesOf,
} from './bundle.ts';
import { benchmarkSummary } from './lighthouse.ts';

// The bundle budget's arithmetic on a made-up manifest: which files a page loads first, their sum, and
// the verdict against its budget. No build and no timing.

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_runtime.js'],
    css: ['assets/index.css'],
  },
  '_runtime.js': { file: 'assets/runtime.js' },
  '_shared.js': { file: 'assets/shared.js', imports: ['_runtime.js'] },
  'routes/item-detail.tsx': {
    file: 'assets/item-detail.js',
    isDynamicEntry: true,
    imports: ['_shared.js', 'index.html'],
    css: ['assets/item.css'],
  },
  'routes/browse.tsx': { file: 'assets/browse.js', isDynamicEntry: true, imports: ['index.html'] },
  // Loaded when a dialog opens: not a page, not a first load.
  'features/reservations/components/reserve-dialog-body.tsx': {
    file: 'assets/reserve-dialog-body.js',
    isDynamicEntry: true,
    imports: ['_shared.js'],
  },
};

const BYTES: Record<string, number> = {
  'assets/index.js': 100 * 1024,
  'assets/runtime.js': 1024,
  'assets/shared.js': 20 * 1024,
  'assets/item-detail.js': 10 * 1024,
  'assets/browse.js': 5 * 1024,
  'assets/reserve-dialog-body.js': 50 * 1024,
  'assets/index.css': 12 * 1024,
  'assets/item.css': 2 * 1024,
};
const size = (file: string) => {
  const bytes = BYTES[file];
  if (bytes === undefined) throw new Error(`no size for ${file}`);
  return bytes;
};

describe('first-load bundle budgets', () => {
  it('counts the entry, the page chunk and their static imports once, and no dialog loaded later', () => {
    expect(routesOf(manifest)).toEqual(['index.html', 'routes/browse.tsx', 'routes/item-detail.tsx']);
    const item = firstLoadFiles(manifest, 'routes/item-detail.tsx');
    expect(item.js.sort()).toEqual(
      ['assets/index.js', 'assets/runtime.js', 'assets/shared.js', 'assets/item-detail.js'].sort(),
    );
    expect(item.css.sort()).toEqual(['assets/index.css', 'assets/item.css']);
    const measured = measureRoutes(manifest, size);
    expect(measured.map((r) => [r.route, r.jsGzipKb, r.cssGzipKb])).toEqual([
      ['index.html', 101, 12],
      ['routes/browse.tsx', 106, 12],
      ['routes/item-detail.tsx', 131, 14],
    ]);
  });

  it('passes a page at its budget, fails one a kilobyte over, and fails a page with no budget', () => {
    const measured = measureRoutes(manifest, size);
    const checks = checkBundleBudgets(measured, {
      routes: {
        'index.html': { jsGzipKb: 101, cssGzipKb: 12 },
        'routes/item-detail.tsx': { jsGzipKb: 130, cssGzipKb: 20 },
      },
    });
    const verdict = (subject: string, budget: string) =>
      checks.find((c) => c.subject === subject && c.budget.startsWith(budget))?.pass;
    expect(verdict('index.html', 'first-load JS')).toBe(true);
    expect(verdict('index.html', 'first-load CSS')).toBe(true);
    expect(verdict('routes/item-detail.tsx', 'first-load JS')).toBe(false);
    expect(verdict('routes/item-detail.tsx', 'first-load CSS')).toBe(true);
    // Browse has none: the check fails and says where to add it.
    const browse = checks.filter((c) => c.subject === 'routes/browse.tsx');
    expect(browse).toHaveLength(1);
    expect(browse[0]!.pass).toBe(false);
    expect(browse[0]!.limit).toContain('bench/bundle-budgets.json');
  });

  it('fails a page whose dialog body is imported with it again, and passes it while it is a chunk of its own', () => {
    const body = 'features/reservations/components/reserve-dialog-body.tsx';
    const budgets = { routes: { 'routes/item-detail.tsx': { jsGzipKb: 200, cssGzipKb: 20, lazy: [body] } } };
    expect(checkLazyModules(manifest, budgets).map((c) => [c.subject, c.actual, c.pass])).toEqual([
      ['routes/item-detail.tsx', 'a chunk of its own', true],
    ]);
    // Imported statically: the bundler puts it in the page's chunk, and the manifest has no entry for it.
    const { [body]: _inlined, ...eager } = manifest;
    expect(checkLazyModules(eager, budgets).map((c) => [c.actual, c.pass])).toEqual([
      ['no chunk of its own', false],
    ]);
    // Still a chunk of its own, but the page imports it statically as well.
    const alsoStatic: Manifest = {
      ...manifest,
      'routes/item-detail.tsx': { ...manifest['routes/item-detail.tsx']!, imports: ['_shared.js', body] },
    };
    expect(checkLazyModules(alsoStatic, budgets).map((c) => [c.actual, c.pass])).toEqual([
      ['in the first load', false],
    ]);
  });

  it('names a manifest key it cannot find instead of measuring less', () => {
    expect(() =>
      firstLoadFiles(
        { ...manifest, 'routes/browse.tsx': { file: 'b.js', imports: ['_gone.js'] } },
        'routes/browse.tsx',
      ),
    ).toThrow(/_gone\.js/);
  });
});

describe("Lighthouse's benchmark index", () => {
  it('warns when any run was on a host slower than 1,000, and not otherwise', () => {
    expect(benchmarkSummary([1800, 2100, 1500])).toEqual({
      benchmarkIndex: { min: 1500, median: 1800, max: 2100 },
    });
    const slow = benchmarkSummary([1200, 700, 900]);
    expect(slow.benchmarkIndex).toEqual({ min: 700, median: 900, max: 1200 });
    expect(slow.warning).toMatch(/2 of 3 runs .* below 1000/);
  });
});
