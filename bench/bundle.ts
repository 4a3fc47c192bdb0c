import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BudgetCheck } from './report.ts';

// `npm run bench -- --only bundle` (and every full run): what each page of the web app makes a phone
// download before it can show and run it, from the Vite build's manifest (dist/web/.vite/manifest.json):
// the entry script with its style sheet and every chunk it imports statically, then the page's own
// chunk (src/web/routes/<page>.tsx, loaded lazily by the router) with its static imports. Gzip sizes,
// as the server sends them, against the budgets in bench/bundle-budgets.json. A page with no budget
// fails too, so a new page is given one the day it is added. Decision 063.

/** Vite's build manifest, the parts read here. */
export type Manifest = Record<
  string,
  {
    file: string;
    src?: string;
    isEntry?: boolean;
    isDynamicEntry?: boolean;
    imports?: string[];
    css?: string[];
  }
>;

export interface RouteBudget {
  /** JS, gzip KB, the page's first load. */
  jsGzipKb: number;
  /** CSS, gzip KB. */
  cssGzipKb: number;
  /**
   * Modules (as the manifest names them) that must stay out of the page's first load: a dialog's body,
   * a form behind a press. Each must be a chunk of its own that the page's first load does not contain.
   */
  lazy?: string[];
}

/** bench/bundle-budgets.json: one budget per page module (as the manifest names it: 'routes/home.tsx'). */
export interface BundleBudgets {
  /** How the figures were set (the file's own note). */
  about?: string;
  routes: Record<string, RouteBudget>;
}

export interface RouteBundle {
  /** The page's module, 'routes/item-detail.tsx'; the entry's own page (Home) is 'index.html'. */
  route: string;
  jsGzipKb: number;
  cssGzipKb: number;
  files: { file: string; gzipKb: number }[];
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** The files a page loads first: the entry's static graph, then the page chunk's (shared files once). */
export function firstLoadFiles(manifest: Manifest, route: string): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no ${key}`);
    if (js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const sheet of chunk.css ?? []) css.add(sheet);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('the build manifest has no entry');
  visit(entry);
  if (route !== entry) visit(route);
  return { js: [...js], css: [...css] };
}

/**
 * The pages to budget: the entry (Home is in it) and every page chunk the router loads lazily.
 * Dynamic entries that are not pages (a dialog's body, the Spanish catalogue) load after a person acts
 * or only for some readers, so they are not a page's first load.
 */
export function routesOf(manifest: Manifest): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const pages = Object.keys(manifest)
    .filter((key) => manifest[key]!.isDynamicEntry && /^routes\/[^/]+\.tsx$/.test(key))
    .sort();
  return entry ? [entry, ...pages] : pages;
}

/** Each page's first load, measured with `size(file)` (gzip bytes of a built file). */
export function measureRoutes(manifest: Manifest, size: (file: string) => number): RouteBundle[] {
  return routesOf(manifest).map((route) => {
    const { js, css } = firstLoadFiles(manifest, route);
    const files = [...js, ...css].map((file) => ({ file, bytes: size(file) }));
    const sum = (list: string[]) => list.reduce((total, file) => total + size(file), 0);
    return {
      route,
      jsGzipKb: kb(sum(js)),
      cssGzipKb: kb(sum(css)),
      files: files.sort((a, b) => b.bytes - a.bytes).map((f) => ({ file: f.file, gzipKb: kb(f.bytes) })),
    };
  });
}

/** One check per page and kind (JS, CSS); a page with no budget fails. */
export function checkBundleBudgets(measured: RouteBundle[], budgets: BundleBudgets): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const page of measured) {
    const budget = budgets.routes[page.route];
    if (!budget) {
      checks.push({
        budget: 'first-load JS + CSS (gzip)',
        subject: page.route,
        limit: 'none set: add it to bench/bundle-budgets.json',
        actual: `${page.jsGzipKb} KB JS, ${page.cssGzipKb} KB CSS`,
        pass: false,
      });
      continue;
    }
    checks.push({
      budget: 'first-load JS (gzip)',
      subject: page.route,
      limit: `≤ ${budget.jsGzipKb} KB`,
      actual: `${page.jsGzipKb.toFixed(1)} KB`,
      pass: page.jsGzipKb <= budget.jsGzipKb,
    });
    checks.push({
      budget: 'first-load CSS (gzip)',
      subject: page.route,
      limit: `≤ ${budget.cssGzipKb} KB`,
      actual: `${page.cssGzipKb.toFixed(1)} KB`,
      pass: page.cssGzipKb <= budget.cssGzipKb,
    });
  }
  return checks;
}

/**
 * One check per module a page's budget names as `lazy`. Imported statically again, such a module becomes
 * part of the page's chunks, and the manifest no longer lists it as a chunk of its own: that fails too.
 */
export function checkLazyModules(manifest: Manifest, budgets: BundleBudgets): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const [route, budget] of Object.entries(budgets.routes)) {
    if (!budget.lazy?.length || !manifest[route]) continue;
    const firstLoad = new Set(firstLoadFiles(manifest, route).js);
    for (const module of budget.lazy) {
      const chunk = manifest[module];
      const own = Boolean(chunk?.isDynamicEntry);
      const inFirstLoad = Boolean(chunk && firstLoad.has(chunk.file));
      checks.push({
        budget: 'loaded when wanted',
        subject: route,
        limit: `${module} outside the first load`,
        actual: !own ? 'no chunk of its own' : inFirstLoad ? 'in the first load' : 'a chunk of its own',
        pass: own && !inFirstLoad,
      });
    }
  }
  return checks;
}

export const BUDGETS_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), 'bundle-budgets.json');

/** The scenario on a built app (`webDir`: dist/web). */
export function runBundleBench(webDir: string, budgetsFile = BUDGETS_FILE) {
  const manifestFile = path.join(webDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: build first (npm run build)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const budgets = JSON.parse(readFileSync(budgetsFile, 'utf8')) as BundleBudgets;
  // gzip at the default level, as Vite's report and bench/web.ts measure (the server's precompressed
  // copies are Brotli and gzip -9, a little smaller).
  const cache = new Map<string, number>();
  const size = (file: string) => {
    let bytes = cache.get(file);
    if (bytes === undefined) {
      bytes = gzipSync(readFileSync(path.join(webDir, file))).length;
      cache.set(file, bytes);
    }
    return bytes;
  };
  const routes = measureRoutes(manifest, size);
  return { routes, checks: [...checkBundleBudgets(routes, budgets), ...checkLazyModules(manifest, budgets)] };
}

/** The pages as a table, the over-budget ones marked. */
export function formatBundles(result: { routes: RouteBundle[]; checks: BudgetCheck[] }): string {
  const failed = new Set(result.checks.filter((c) => !c.pass).map((c) => c.subject));
  const rows = result.routes.map(
    (r) =>
      `${failed.has(r.route) ? '✗' : ' '} ${r.route.padEnd(32)} ${r.jsGzipKb.toFixed(1).padStart(7)} ${r.cssGzipKb
        .toFixed(1)
        .padStart(7)}  ${r.files.length} files`,
  );
  const over = result.checks.filter((c) => !c.pass);
  return [
    'First load per page, gzip KB (bench/bundle-budgets.json)',
    `  ${'page'.padEnd(32)} ${'JS'.padStart(7)} ${'CSS'.padStart(7)}`,
    ...rows,
    over.length
      ? `OVER BUDGET (${over.length}):\n${over.map((c) => `  ${c.subject}: ${c.budget} ${c.actual}, limit ${c.limit}`).join('\n')}`
      : 'every page within its budget',
  ].join('\n');
}
