import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, scriptRunning, setupBrowser, signIn } from './helpers.ts';

// Browse on a phone: the results start on the first screen, and everything the student chose (search
// words, campus, category, filters, pages loaded) is in the address, so a reload, Back and a shared
// link keep it. Every way into Browse keeps the campus chosen on Home.

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 800 };

const cards = (page: Page) => page.locator('main a[href^="/item/"]');
const found = (page: Page) => page.getByText(/\d+ items? found/).first();
const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** The item links the list shows, in order, once it has settled on `count` of them. */
async function shownItems(page: Page): Promise<string[]> {
  await found(page).waitFor();
  await cards(page).first().waitFor();
  return cards(page).evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
}

/** What the filter controls show, as a student would read them. */
async function controls(page: Page) {
  return {
    search: await page.getByLabel('Search items').inputValue(),
    category: await page
      .getByRole('group', { name: 'Filter by category' })
      .locator('[aria-pressed="true"]')
      .textContent(),
    freeOnly: await page.getByLabel('Free only').isChecked(),
    availableNow: await page.getByLabel('Available now').isChecked(),
    maxPrice: await page.getByLabel('Max price ($)').inputValue(),
    pickup: await page.getByLabel('Pickup method').inputValue(),
    sort: await page.getByLabel('Sort by').inputValue(),
  };
}

describe('Browse on a phone', () => {
  for (const [who, language] of [
    ['a visitor', undefined],
    ['a visitor in Spanish', 'es'],
    ['a signed-in student', undefined],
  ] as const) {
    it(`shows ${who} the first result on the first screen at 375 × 667`, async () => {
      const page = await b.newPage(PHONE, language);
      if (who === 'a signed-in student') {
        await signIn(page, 'sam.rivera@berkeley.edu');
        await page.goto('/browse');
      } else await page.goto('/browse');
      await cards(page).first().waitFor();
      await page.evaluate(() => document.fonts.ready);
      const first = await cards(page).first().boundingBox();
      const bar = await page
        .getByRole('navigation', { name: language ? /m[oó]vil/i : 'Mobile' })
        .boundingBox();
      if (!first || !bar) throw new Error('no first card or no bottom bar');
      // The card's top, and enough of its photo to see what it is, above the bottom bar.
      expect(first.y).toBeGreaterThan(0);
      expect(first.y + 120, `the first card starts at ${first.y} px`).toBeLessThanOrEqual(bar.y);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page
        .screenshot({ path: `/tmp/shots/browse-phone-${language ?? 'en'}-${who.split(' ').at(-1)}.png` })
        .catch(() => undefined);
      await expectAccessible(page);
      await page.context().close();
    });
  }
});

describe("Browse's address keeps what the student chose", () => {
  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`filters survive a reload and Back restores the previous ones (${name})`, async () => {
      const page = await b.newPage(viewport);
      await page.goto('/browse?campus=all');
      await shownItems(page);

      // A category first: its own entry in the history.
      await page.getByRole('button', { name: 'Tools', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('category') === 'tools');
      await expect.poll(async () => (await found(page).textContent()) ?? '').not.toMatch(/^Loading/);
      const toolsOnly = await shownItems(page);

      // Then the filters and search words.
      await page.getByRole('button', { name: 'Filters' }).click();
      await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
      await page.waitForURL((url) => url.searchParams.get('sort') === 'price-high');
      await page.getByLabel('Available now').uncheck();
      await page.getByLabel('Pickup method').selectOption('meetup');
      await page.getByLabel('Max price ($)').fill('5');
      await page.getByLabel('Search items').fill('set');
      await page.waitForURL(
        (url) => url.searchParams.get('q') === 'set' && url.searchParams.get('max') === '5',
      );
      expect(params(page)).toEqual({
        campus: 'all',
        category: 'tools',
        sort: 'price-high',
        available: 'any',
        pickup: 'meetup',
        max: '5',
        q: 'set',
      });
      await expect.poll(() => shownItems(page)).not.toEqual(toolsOnly);
      const filtered = await shownItems(page);
      const chosen = await controls(page);
      expect(chosen).toEqual({
        search: 'set',
        category: 'Tools',
        freeOnly: false,
        availableNow: false,
        maxPrice: '5',
        pickup: 'meetup',
        sort: 'price-high',
      });
      // Dearest first.
      const prices = await cards(page).evaluateAll((links) =>
        links.map((link) => Number(/\$(\d+\.\d\d)/.exec(link.textContent ?? '')?.[1] ?? 0)),
      );
      expect(prices).toEqual([...prices].sort((a, b) => b - a));
      await page.screenshot({ path: `/tmp/shots/browse-filters-${name}.png` }).catch(() => undefined);

      // A reload shows the same filters and the same list.
      await page.reload();
      await page.getByRole('button', { name: 'Filters' }).click();
      expect(await controls(page)).toEqual(chosen);
      expect(await shownItems(page)).toEqual(filtered);
      await expectAccessible(page);

      // Back leaves 'pickup' (the last choice made with a control of its own) and shows the list before it.
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('pickup') === null);
      expect(params(page).category).toBe('tools');
      expect(params(page).available).toBe('any');
      await expect.poll(() => page.getByLabel('Pickup method').inputValue()).toBe('');
      // Back again: 'Available now' on; then the order the list had; then before the category, every
      // category.
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('available') === null);
      await expect.poll(() => page.getByLabel('Available now').isChecked()).toBe(true);
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('sort') === null);
      await expect.poll(() => page.getByLabel('Sort by').inputValue()).toBe('');
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('category') === null);
      await expect
        .poll(() =>
          page
            .getByRole('group', { name: 'Filter by category' })
            .locator('[aria-pressed="true"]')
            .textContent(),
        )
        .toBe('All');
      await page.context().close();
    });
  }

  it("'Load more' is in the address: a reload shows as many results again", async () => {
    const page = await b.newPage(PHONE);
    await page.goto('/browse?campus=all&available=any');
    expect(await shownItems(page)).toHaveLength(12);
    // A link: pressed on the pre-rendered page before the script has run, it still loads the next page.
    const loadMore = page.getByRole('link', { name: 'Load more' });
    await loadMore.click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(async () => (await shownItems(page)).length).toBeGreaterThan(12);
    // Pressed once the app runs, the list grows where it is: the student is not sent back to its top.
    await scriptRunning(page);
    await loadMore.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await loadMore.click();
    await page.waitForURL((url) => url.searchParams.get('page') === '3');
    await expect.poll(async () => (await shownItems(page)).length).toBeGreaterThan(24);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    const loaded = await shownItems(page);
    await page.reload();
    await expect.poll(() => shownItems(page)).toEqual(loaded);
    // A new filter starts the list again from its first page.
    await scriptRunning(page);
    await page.getByRole('button', { name: 'Books', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('category') === 'books');
    expect(params(page).page).toBeUndefined();
    await page.context().close();
  });

  it('a shared link opens on the same list, server-rendered before the script runs', async () => {
    const page = await b.newPage(PHONE);
    await page.goto('/browse?campus=stanford.edu&category=tools&free=1');
    const list = await shownItems(page);
    expect(list.length).toBeGreaterThan(0);
    const other = await b.newPage(PHONE);
    // The app's script never arrives: what shows is what the server rendered from the address.
    await other.route('**/assets/*.js', (route) => route.abort());
    await other.goto('/browse?campus=stanford.edu&category=tools&free=1', { waitUntil: 'domcontentloaded' });
    expect(await cards(other).evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(
      list,
    );
    await other.context().close();
    await page.context().close();
  });
});

describe('every way into Browse keeps the campus chosen on Home', () => {
  it('the menu, View All and a category on Home open Browse on that campus', async () => {
    const page = await b.newPage(PHONE);
    await page.goto('/');
    await page.locator('a[href^="/item/"]').first().waitFor();
    const shown = page.getByRole('region', { name: 'Campus shown' });
    await shown.getByLabel('Campus', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Search universities' }).fill('UC Berkeley');
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /University of California-Berkeley/ })
      .first()
      .click();
    await shown.getByText('University of California-Berkeley', { exact: true }).waitFor();

    // Home's 'View All', with the category chosen there.
    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    await page.getByRole('link', { name: 'View All' }).click();
    await page.waitForURL((url) => url.pathname === '/browse');
    expect(params(page)).toEqual({ campus: 'berkeley.edu', category: 'tools' });

    // The bottom bar's Browse, from another page: the campus comes along into the address.
    await page.goto('/about');
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Browse' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/browse' && url.searchParams.get('campus') === 'berkeley.edu',
    );
    await shownItems(page);
    const campuses = await cards(page).evaluateAll((links) =>
      links.map((link) => link.querySelector('svg.lucide-map-pin + span')?.textContent ?? ''),
    );
    expect(new Set(campuses)).toEqual(new Set(['University of California-Berkeley']));

    // A new tab starts from the student's own campus again (a visitor: every campus).
    const fresh = await b.newPage(PHONE);
    await fresh.goto('/browse');
    await shownItems(fresh);
    expect(params(fresh).campus).toBeUndefined();
    await fresh.context().close();
    await page.context().close();
  });
});
