import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstLoadFiles, type Manifest } from '../../bench/bundle.ts';
import { setupBrowser, signIn } from './helpers.ts';

// An item's page arrives rendered (its title and price are there before any script
// runs), and the footer no longer jumps: it starts below the first screen while a page loads, on a
// phone and on a desktop, so loading adds no layout shift (it was 0.18 to 0.42 before).

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 900 };

let itemId: string;
const TITLE = 'Page speed folding bike';

beforeAll(async () => {
  // A listing of Priya's own (no other journey books it).
  const owner = await b.newPage();
  await signIn(owner, 'priya.patel@stanford.edu');
  const response = await owner.request.post('/api/items', {
    headers: { origin: b.baseURL },
    data: {
      title: TITLE,
      description: 'A folding bike with lights and a lock, for getting around campus.',
      category: 'other',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'Tresidder Union',
      rentalPrice: '6.50',
      rentalPeriod: 'day',
      depositAmount: '40.00',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  itemId = (await response.json()).item.id;
  await owner.context().close();
});

/**
 * Every layout shift the page reports without input, and where the footer's top edge was at each
 * frame of the first 3 s (recorded from the page's first script, before the app's).
 */
async function watchLoading(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: number[]; __footerTops: number[] };
    w.__shifts = [];
    w.__footerTops = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) w.__shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
    const started = performance.now();
    const frame = () => {
      const footer = document.querySelector('footer');
      if (footer) w.__footerTops.push(footer.getBoundingClientRect().top);
      if (performance.now() - started < 3000) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

async function loadingRecord(page: Page) {
  // The recording runs for 3 s from the first frame.
  await page.waitForFunction(() => performance.now() > 3500, undefined, { polling: 100 });
  return page.evaluate(() => {
    const w = window as unknown as { __shifts: number[]; __footerTops: number[] };
    return {
      cls: w.__shifts.reduce((sum, value) => sum + value, 0),
      footerTops: w.__footerTops,
      innerHeight: window.innerHeight,
    };
  });
}

describe('page speed and polish', () => {
  it("an item's page has its title and price in the HTML, before any script runs", async () => {
    // The journeys' browser, in a context of its own with scripts turned off.
    const first = await b.newPage(PHONE);
    const browser = first.context().browser() as Browser;
    await first.context().close();
    const context = await browser.newContext({
      baseURL: b.baseURL,
      viewport: PHONE,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    const response = await page.goto(`/item/${itemId}`);
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE);
    const main = page.locator('main');
    expect(await main.textContent()).toContain('$6.50 / day');
    expect(await main.textContent()).toContain('$40.00 refundable deposit');
    await context.close();
  });

  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`the footer stays below the first screen while pages load (${name})`, async () => {
      // A visitor on the pre-rendered item page, and a signed-in student on pages the browser renders
      // (their reservations, and the same item page, which they get as the shell).
      const visitor = await b.newPage(viewport);
      await watchLoading(visitor);
      await visitor.goto(`/item/${itemId}`);
      await visitor.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
      const rendered = await loadingRecord(visitor);
      expect(Math.min(...rendered.footerTops)).toBeGreaterThanOrEqual(rendered.innerHeight);
      expect(rendered.cls).toBeLessThanOrEqual(0.05);
      await visitor.context().close();

      const student = await b.newPage(viewport);
      await signIn(student, 'jordan.lee@stanford.edu');
      await watchLoading(student);
      for (const path of ['/reservations', `/item/${itemId}`, '/about']) {
        await student.goto(path);
        await student.getByRole('heading', { level: 1 }).first().waitFor();
        const record = await loadingRecord(student);
        expect(record.footerTops.length, path).toBeGreaterThan(0);
        expect(Math.min(...record.footerTops), path).toBeGreaterThanOrEqual(record.innerHeight);
      }
      await student.context().close();
    });
  }
});

describe("an item page's first script", () => {
  // What a visitor's phone fetches before the item page shows: the page's own chunk and what it imports,
  // each hinted by the pre-rendered HTML. Everything behind a press is a chunk of its own (decision 063);
  // the Reserve dialog's body once came back into it, with Stripe's card form and all of zod.
  /**
   * Its hint links on 2026-11-29 were 32 to 33, one more once Radix's overlay parts left the entry (56
   * with the dialogs' bodies; the runtime chunk is hinted twice, by the entry's HTML and by the page's),
   * with room for the bundler splitting a shared chunk
   * (the reviews list became its own when the profile page began to share it): a page that needs more
   * says why in docs/performance.md.
   */
  const MOST_HINTS = 36;

  it('hints only what the page shows: no dialog body, card form or schemas', async () => {
    const page = await b.newPage(PHONE);
    const html = await (await page.request.get(`/item/${itemId}`)).text();
    await page.context().close();
    const hinted = [
      ...html.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)" fetchpriority="low">/g),
    ].map((match) => match[1] as string);
    const manifest = JSON.parse(readFileSync('dist/web/.vite/manifest.json', 'utf8')) as Manifest;
    const firstLoad = firstLoadFiles(manifest, 'routes/item-detail.tsx').js;
    expect(hinted.length).toBeGreaterThan(0);
    expect(hinted.every((file) => firstLoad.includes(file))).toBe(true);

    for (const body of [
      'features/reservations/components/reserve-dialog-body.tsx',
      'features/reports/components/report-form.tsx',
      'features/items/components/delete-item-dialog.tsx',
    ]) {
      // Imported statically again, it would be no chunk of its own but part of the page's.
      expect(manifest[body]?.isDynamicEntry, body).toBe(true);
      expect(firstLoad, body).not.toContain(manifest[body]?.file);
    }
    expect(firstLoad.filter((file) => /\/(card-setup-form|schemas|zod)-/.test(file))).toEqual([]);
    expect(hinted.length).toBeLessThanOrEqual(MOST_HINTS);
  });
});

describe("Home's first script", () => {
  // The entry every page starts with, parsed and run on a phone before the pre-rendered page hydrates
  // (decision 063). React Router's data router and Radix's overlays were a fifth of it; neither is
  // used before someone acts. Markers that survive minification: the data router's option names, and
  // the event and style names Radix's popper, focus trap and dismissal write.
  const OUT_OF_THE_FIRST_SCRIPT = {
    "React Router's data router (createBrowserRouter)": 'hydrationData',
    "Radix's popper (the campus list's positioning)": '--radix-popper-',
    "Radix's focus trap": 'focusScope.autoFocusOnMount',
    "Radix's dismissable layer": 'dismissableLayer.update',
  };

  it('has no data router and no overlay code; the campus list is a chunk of its own', () => {
    const manifest = JSON.parse(readFileSync('dist/web/.vite/manifest.json', 'utf8')) as Manifest;
    const combobox = manifest['features/universities/components/university-combobox.tsx'];
    expect(combobox?.isDynamicEntry).toBe(true);
    for (const page of ['index.html', 'routes/browse.tsx', 'routes/impact.tsx']) {
      const firstLoad = firstLoadFiles(manifest, page).js;
      expect(firstLoad, page).not.toContain(combobox?.file);
      const script = firstLoad.map((file) => readFileSync(`dist/web/${file}`, 'utf8')).join('\n');
      for (const [what, marker] of Object.entries(OUT_OF_THE_FIRST_SCRIPT)) {
        expect(script.includes(marker), `${page}: ${what}`).toBe(false);
      }
    }
  });
});

describe('the Content-Security-Policy', () => {
  it('no page breaks it: no eval, no inline script the policy does not allow', async () => {
    const page = await b.newPage(PHONE);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
      );
    });
    for (const path of ['/', '/browse', `/item/${itemId}`, '/impact', '/login', '/register']) {
      await page.goto(path);
      // Each of these pages loads the shared schemas (zod), the code that tried eval, with its chunk.
      await page.locator('footer').waitFor();
      await page.waitForLoadState('networkidle');
      const violations = await page.evaluate(
        () => (window as unknown as { cspViolations: string[] }).cspViolations,
      );
      expect(violations, path).toEqual([]);
    }
  });
});
