import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/browser.ts';
import type { Fixtures } from './fixtures.ts';
import { ROOT } from './server.ts';

// The web app as a phone sees it: the gzip size of what each page loads, and the Largest Contentful
// Paint and Total Blocking Time of Home and Browse in headless Chromium with a phone viewport, the CPU
// slowed 4x and Chrome DevTools' "Slow 4G" network, through the DevTools Protocol.

/** Chrome DevTools' "Slow 4G" preset (Lighthouse's mobile throttling): 562.5 ms, 1.44 Mbit/s down. */
export const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
export const CPU_SLOWDOWN = 4;
/** Lighthouse's phone (Moto G Power). */
const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Mobile Safari/537.36',
};

export interface RouteBundle {
  route: string;
  signedIn: boolean;
  jsGzipKb: number;
  cssGzipKb: number;
  jsFiles: string[];
}

export interface PageVitals {
  page: string;
  /** Medians over the runs. */
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  /** What the browser received for scripts (as served: compressed only if the server compresses). */
  jsTransferKb: number;
  lcpElement: string;
  runs: {
    lcpMs: number;
    fcpMs: number;
    tbtMs: number;
    /** When the page's HTML, and the last script, had arrived (ms from navigation start). */
    htmlMs: number;
    scriptsMs: number;
    jsTransferKb: number;
    lcpElement: string;
  }[];
}

export interface WebResult {
  throttling: { cpuSlowdown: number; network: typeof SLOW_4G; viewport: typeof PHONE.viewport };
  /** Every built JS chunk, gzip KB, largest first. */
  chunks: { file: string; gzipKb: number }[];
  routes: RouteBundle[];
  homeJsBeforeInteractiveGzipKb: number;
  homeJsFiles: { file: string; gzipKb: number }[];
  vitals: PageVitals[];
}

const WEB_DIR = path.join(ROOT, 'dist/web');
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
const gzipCache = new Map<string, number>();

/** gzip size (zlib's default level, as Vite reports it) of a built asset, by its URL path. */
function gzipBytes(urlPath: string): number {
  let size = gzipCache.get(urlPath);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(WEB_DIR, urlPath))).length;
    gzipCache.set(urlPath, size);
  }
  return size;
}

function builtChunks(): { file: string; gzipKb: number }[] {
  const dir = path.join(WEB_DIR, 'assets');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ file: f, gzipKb: kb(gzipBytes(`/assets/${f}`)) }))
    .sort((a, b) => b.gzipKb - a.gzipKb);
}

/** Records, in the page, the paint and long-task entries the vitals are computed from. */
const VITALS_OBSERVER = `
  window.__vitals = { lcp: 0, lcpElement: '', fcp: 0, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__vitals.lcp = e.startTime;
      const el = e.element;
      window.__vitals.lcpElement = el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).slice(0, 3).join('.') : '') +
        (el.textContent ? ' "' + el.textContent.trim().slice(0, 40) + '"' : '') : '';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__vitals.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__vitals.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

async function signIn(context: BrowserContext, url: string, cookie: string) {
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url }]);
}

/** The JS and CSS one page loads until the network is quiet (no interaction: what the page itself needs). */
async function routeBundle(context: BrowserContext, url: string, route: string, signedIn: boolean) {
  const page = await context.newPage();
  const js = new Set<string>();
  const css = new Set<string>();
  page.on('request', (request) => {
    const u = new URL(request.url());
    if (u.origin !== new URL(url).origin || !u.pathname.startsWith('/assets/')) return;
    if (u.pathname.endsWith('.js')) js.add(u.pathname);
    else if (u.pathname.endsWith('.css')) css.add(u.pathname);
  });
  await page.goto(`${url}${route}`, { waitUntil: 'networkidle' });
  await page.close();
  const sum = (files: Set<string>) => kb([...files].reduce((s, f) => s + gzipBytes(f), 0));
  return {
    route,
    signedIn,
    jsGzipKb: sum(js),
    cssGzipKb: sum(css),
    jsFiles: [...js].map((f) => path.basename(f)).sort(),
  };
}

async function measureVitals(context: BrowserContext, url: string, route: string) {
  const page = await context.newPage();
  await page.addInitScript(VITALS_OBSERVER);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const scripts = new Set<string>();
  let jsTransfer = 0;
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId)) jsTransfer += e.encodedDataLength;
  });
  await page.goto(`${url}${route}`, { waitUntil: 'networkidle', timeout: 120_000 });
  // Let late long tasks and paints land: two quiet seconds after the network settles.
  await page.waitForTimeout(2000);
  const v = (await page.evaluate(`({
    ...window.__vitals,
    html: performance.getEntriesByType('navigation')[0].responseEnd,
    scripts: Math.max(0, ...performance.getEntriesByType('resource')
      .filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
      .map((r) => r.responseEnd)),
  })`)) as {
    lcp: number;
    lcpElement: string;
    fcp: number;
    longTasks: [number, number][];
    html: number;
    scripts: number;
  };
  await page.close();
  // Total Blocking Time: the part of each long task beyond 50 ms, after the first contentful paint.
  const tbt = v.longTasks
    .filter(([start]) => start >= v.fcp)
    .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
  return {
    lcpMs: Math.round(v.lcp),
    fcpMs: Math.round(v.fcp),
    tbtMs: Math.round(tbt),
    htmlMs: Math.round(v.html),
    scriptsMs: Math.round(v.scripts),
    jsTransferKb: kb(jsTransfer),
    lcpElement: v.lcpElement,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureWeb(options: {
  url: string;
  fixtures: Fixtures;
  runs: number;
}): Promise<WebResult> {
  if (!existsSync(path.join(WEB_DIR, 'index.html'))) throw new Error('dist/web is missing: build first');
  const { url, fixtures } = options;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const visitor = await browser.newContext(PHONE);
    const student = await browser.newContext(PHONE);
    await signIn(student, url, fixtures.people[0]!.cookie);
    const routes: RouteBundle[] = [];
    const publicRoutes = [
      '/',
      '/browse',
      `/item/${fixtures.itemIds[0]}`,
      `/profile/${fixtures.profileIds[0]}`,
      '/login',
      '/register',
      '/about',
    ];
    const privateRoutes = [
      '/',
      '/list-item',
      '/chat',
      '/notifications',
      '/reservations',
      '/billing-history',
      '/payment-methods',
    ];
    for (const route of publicRoutes) routes.push(await routeBundle(visitor, url, route, false));
    for (const route of privateRoutes) routes.push(await routeBundle(student, url, route, true));
    await visitor.close();
    await student.close();

    const home = routes.find((r) => r.route === '/' && !r.signedIn)!;
    const vitals: PageVitals[] = [];
    for (const route of ['/', '/browse']) {
      const runs = [];
      for (let i = 0; i < options.runs; i++) {
        // A fresh context each run: a first visit, nothing cached.
        const context = await browser.newContext(PHONE);
        runs.push(await measureVitals(context, url, route));
        await context.close();
      }
      const lcp = median(runs.map((r) => r.lcpMs));
      vitals.push({
        page: route === '/' ? 'home' : 'browse',
        lcpMs: lcp,
        fcpMs: median(runs.map((r) => r.fcpMs)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
        jsTransferKb: median(runs.map((r) => r.jsTransferKb)),
        lcpElement: runs.find((r) => r.lcpMs === lcp)!.lcpElement,
        runs,
      });
    }
    return {
      throttling: { cpuSlowdown: CPU_SLOWDOWN, network: SLOW_4G, viewport: PHONE.viewport },
      chunks: builtChunks(),
      routes,
      homeJsBeforeInteractiveGzipKb: home.jsGzipKb,
      homeJsFiles: home.jsFiles.map((f) => ({ file: f, gzipKb: kb(gzipBytes(`/assets/${f}`)) })),
      vitals,
    };
  } finally {
    await browser.close();
  }
}
