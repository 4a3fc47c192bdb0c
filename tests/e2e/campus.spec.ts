import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

// 'My campus first': Home and Browse show the student's own campus with a visible, labelled
// campus switch (used here by keyboard only); a visitor's Home shows one campus's figures and items;
// campus names are shown whole; reserving on another campus asks first.

const b = setupBrowser();

/** The campus names the item cards on the page show (their map-pin line). */
async function cardCampuses(page: Page): Promise<string[]> {
  const cards = page.locator('a[href^="/item/"]');
  await cards.first().waitFor();
  return cards.evaluateAll((links) =>
    links.map((link) => link.querySelector('svg.lucide-map-pin + span')?.textContent ?? ''),
  );
}

/** Chooses a campus with the keyboard: Tab onto the switch, Enter, type, Enter. */
async function switchCampusByKeyboard(page: Page, query: string, name: string) {
  await page.getByLabel('Campus', { exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: 'Search universities' }).waitFor();
  await page.keyboard.type(query);
  // The list answers the typed text (after a short pause): the first option is the one Enter takes (the
  // listbox's: the footer's language switch has options of its own).
  await expect
    .poll(() => page.getByRole('listbox').getByRole('option').first().textContent())
    .toContain(name);
  await page.keyboard.press('Enter');
}

describe('my campus first', () => {
  it('a visitor’s Home shows one campus’s figures and items, and the switch moves both', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Shared so far at Stanford University' }).waitFor();
    // On a phone the switch names the campus of the figures and the items below it.
    const shown = page.getByRole('region', { name: 'Campus shown' });
    await shown.getByText('Stanford University', { exact: true }).waitFor();
    const campuses = await cardCampuses(page);
    expect(campuses.length).toBeGreaterThan(0);
    expect(new Set(campuses)).toEqual(new Set(['Stanford University']));
    await expectAccessible(page);

    await switchCampusByKeyboard(page, 'UC Berkeley', 'University of California-Berkeley');
    await page.getByRole('heading', { name: 'Shared so far at University of California-Berkeley' }).waitFor();
    await shown.getByText('University of California-Berkeley', { exact: true }).waitFor();
    await expect
      .poll(async () => [...new Set(await cardCampuses(page))])
      .toEqual(['University of California-Berkeley']);
  });

  it('a student’s Browse opens on their campus; All campuses and Back are in the address bar', async () => {
    const page = await b.newPage({ width: 1280, height: 900 });
    await signIn(page, 'sam.rivera@berkeley.edu');
    await page.goto('/browse');
    await page.getByText('Find what you need from students at University of California-Berkeley.').waitFor();
    await page.getByText(/items found/).waitFor();
    expect(new Set(await cardCampuses(page))).toEqual(new Set(['University of California-Berkeley']));
    const found = async () =>
      Number((await page.getByText(/\d+ items? found/).textContent())?.match(/\d+/)?.[0]);
    const onBerkeley = await found();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'All campuses' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('campus') === 'all');
    await page.getByText('Find what you need from students on campuses everywhere.').waitFor();
    // Every campus's items: more than Berkeley's (the newest first, so the first page may all be one
    // campus's), and Stanford's among them further down the list.
    await expect.poll(found).toBeGreaterThan(onBerkeley);

    await page.getByRole('button', { name: 'My campus' }).click();
    await page.waitForURL((url) => url.searchParams.get('campus') === 'berkeley.edu');
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('campus') === 'all');
    await page.getByText('Find what you need from students on campuses everywhere.').waitFor();
  });

  it('campus names are whole on a phone, wrapping between words, never cut', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await page.goto('/browse?campus=berkeley.edu');
    await page.getByText(/items found/).waitFor();
    const names = page.locator('svg.lucide-map-pin + span');
    await names.first().waitFor();
    const shown = await names.evaluateAll((spans) =>
      spans.map((span) => {
        const style = getComputedStyle(span);
        return {
          text: span.textContent,
          cut: span.scrollWidth > span.clientWidth || style.textOverflow === 'ellipsis',
          breaksWords: style.wordBreak === 'break-all' || style.overflowWrap === 'anywhere',
        };
      }),
    );
    for (const name of shown) {
      expect(name).toEqual({ text: 'University of California-Berkeley', cut: false, breaksWords: false });
    }
    // The switch itself shows the whole name too.
    const trigger = page.getByLabel('Campus', { exact: true });
    // It says "Loading campus…" until the campus directory has answered (slow on a busy machine).
    await trigger.getByText('University of California-Berkeley').waitFor();
    expect(await trigger.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  it('reserving on another campus asks first', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await signIn(page, 'jordan.lee@stanford.edu');
    await page.goto('/browse?campus=berkeley.edu');
    await page.getByText(/items found/).waitFor();
    // An available Berkeley item (a dimmed card says 'Not Available').
    const { items } = await (
      await page.request.get('/api/items?campus=berkeley.edu&availableNow=true')
    ).json();
    await page.goto(`/item/${items[0].id}`);
    await page.getByRole('button', { name: 'Reserve Item' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'This item is on another campus' }).waitFor();
    await dialog.getByText(/you are at Stanford University/).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Reserve Item' }).click();
    await dialog.getByRole('button', { name: 'Reserve anyway' }).click();
    await dialog.getByText('Cost breakdown').waitFor();
  });
});
