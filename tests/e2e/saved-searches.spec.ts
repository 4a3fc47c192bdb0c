import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectAccessible, journeySteps, newStudent, setupBrowser } from './helpers.ts';

// Saved searches at phone size, in English and in Spanish (decision 067): Sam and Lola search for
// something nobody lists yet and choose "Tell me when something matches"; Leo then lists one, and the
// bell tells each of them, in their language, with a link that opens the item. A visitor's button
// signs in first and comes back to the same search.

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };
const tag = Date.now().toString(36);
const word = `kazoo${tag}`;
const title = `Kazoo${tag} for band practice`;

async function openBell(page: Page, name: RegExp) {
  await page.getByRole('button', { name }).click();
  return page.getByRole('menu');
}

describe('saved searches journey', () => {
  journeySteps();
  let sam: Page;
  let lola: Page;
  let leo: Page;
  let itemId = '';

  beforeAll(async () => {
    [sam, lola, leo] = await Promise.all([
      newStudent(b, { name: 'Sam', surname: 'Saved', tag, viewport: PHONE, payouts: false }),
      newStudent(b, {
        name: 'Lola',
        surname: 'Guardada',
        tag,
        viewport: PHONE,
        language: 'es',
        payouts: false,
      }),
      newStudent(b, { name: 'Leo', surname: 'Lister', tag, payouts: false }),
    ]);
  });

  it('a visitor is asked to sign in and comes back to the same search', async () => {
    const visitor = await b.newPage(PHONE);
    await visitor.goto(`/browse?q=${word}`);
    await visitor.getByRole('link', { name: 'Tell me when something matches' }).click();
    await visitor.waitForURL(/\/login\?/);
    expect(new URL(visitor.url()).searchParams.get('returnTo')).toBe(`/browse?q=${word}`);
  });

  it('Sam saves the search from Browse at phone size', async () => {
    await sam.goto(`/browse?q=${word}`);
    await sam.getByRole('heading', { name: 'No items found' }).waitFor();
    const tell = sam.getByRole('button', { name: 'Tell me when something matches' });
    await tell.focus();
    await sam.keyboard.press('Enter');
    await sam.getByRole('button', { name: 'Saved — stop telling me' }).waitFor();
    await expectAccessible(sam);
    await sam.screenshot({ path: '/tmp/saved-search-browse-375.png' });
  });

  it('Lola saves it in Spanish', async () => {
    await lola.goto(`/browse?q=${word}`);
    await lola.getByRole('button', { name: 'Avísame cuando haya algo' }).click();
    await lola.getByRole('button', { name: 'Guardada: dejar de avisarme' }).waitFor();
    await expectAccessible(lola);
    await lola.screenshot({ path: '/tmp/saved-search-browse-375-es.png' });
  });

  it('Leo lists a matching item: the bell tells Sam, and its link opens the item', async () => {
    const listed = await callApi(leo, 'POST', '/api/items', {
      title,
      description: 'A kazoo that still hums nicely, for band practice.',
      category: 'other',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'White Plaza',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    itemId = listed.item.id;
    await sam.goto('/');
    // The job runs after the listing commits; the bell hears of it live.
    const menu = await openBell(sam, /^Notifications, \d+ unread/);
    await menu.getByText(`New match for “${word}”`).waitFor();
    await menu.getByText(`Just listed on your campus: “${title}”.`).waitFor();
    await expectAccessible(sam);
    await sam.screenshot({ path: '/tmp/saved-search-bell-375.png' });
    await menu.getByRole('menuitem', { name: 'See the listing' }).click();
    await sam.waitForURL(new RegExp(`/item/${itemId}$`));
    await sam.getByRole('heading', { name: title, level: 1 }).waitFor();
  });

  it('the bell tells Lola in Spanish', async () => {
    await lola.goto('/');
    const menu = await openBell(lola, /^Notificaciones, \d+ sin leer/);
    await menu.getByText(`Nueva coincidencia para «${word}»`).waitFor();
    await expectAccessible(lola);
    await lola.screenshot({ path: '/tmp/saved-search-bell-375-es.png' });
    await menu.getByRole('menuitem', { name: 'Ver la publicación' }).click();
    await lola.getByRole('heading', { name: title, level: 1 }).waitFor();
  });

  it('Sam sees the search in Settings and deletes it', async () => {
    await sam.goto('/settings');
    const section = sam.getByRole('region', { name: 'Saved searches' });
    await section.getByRole('link', { name: `“${word}”` }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await expectAccessible(sam);
    await sam.screenshot({ path: '/tmp/saved-search-settings-375.png' });
    await sam.setViewportSize({ width: 1280, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await sam.screenshot({ path: '/tmp/saved-search-settings-1280.png' });
    await section.getByRole('button', { name: `Delete the saved search “${word}”` }).click();
    await section.getByText(/No saved searches yet/).waitFor();
  });
});
