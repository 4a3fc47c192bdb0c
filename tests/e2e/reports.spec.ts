import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

/** A fresh listing of the given student's, so hiding it touches no other journey's item. */
async function listItem(page: Page, title: string): Promise<string> {
  const response = await page.request.post('/api/items', {
    headers: { origin: b.baseURL },
    data: {
      title,
      description: 'A 35 mm film camera with a 50 mm lens and a new battery.',
      category: 'electronics',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'Tresidder Union',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).item.id;
}

describe('reports and moderation journey', () => {
  it('a student reports an item, a moderator hides it and resolves the report, and it is gone from browse', async () => {
    const title = `Retro film camera ${Date.now().toString(36)}`;
    const owner = await b.newPage();
    await signIn(owner, 'priya.patel@stanford.edu');
    const itemId = await listItem(owner, title);

    // Jordan, on a phone, finds the listing and reports it.
    const reporter = await b.newPage({ width: 375, height: 812 });
    await signIn(reporter, 'jordan.lee@stanford.edu');
    await reporter.goto(`/browse?q=${encodeURIComponent(title)}`);
    await reporter.getByRole('link', { name: title }).click();
    await reporter.getByRole('heading', { name: title, level: 1 }).waitFor();
    await reporter.getByRole('button', { name: 'Report Item' }).click();
    const dialog = reporter.getByRole('dialog', { name: 'Report Item' });
    await dialog.getByText('False reports can lead to account restrictions.').waitFor();
    expect(await dialog.getByLabel('Reason').inputValue()).toBe('scam');
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await dialog.getByText('Please provide a detailed description (at least 10 characters)').waitFor();
    await expectAccessible(reporter);
    await dialog.getByLabel('Reason').selectOption({ label: 'Fake Listing' });
    await dialog
      .getByLabel('Description')
      .fill('The photos are missing and the same camera is listed on another site for sale.');
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await reporter.getByText('Report submitted successfully', { exact: true }).waitFor();
    await reporter.getByText('You reported this item. Our team is reviewing it.').waitFor();

    // The moderator opens the queue from the user menu, reads the report and acts on it.
    const moderator = await b.newPage();
    await signIn(moderator, 'moderator@stanford.edu');
    await moderator.getByRole('button', { name: 'Account menu for Morgan Reyes' }).click();
    await moderator.getByRole('menuitem', { name: 'Admin' }).click();
    await moderator.waitForURL((url) => url.pathname === '/admin');
    await moderator.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    await moderator.getByRole('tab', { name: /^Pending \(\d+\)$/ }).waitFor();
    await expectAccessible(moderator);
    await moderator.getByRole('link', { name: new RegExp(title) }).click();
    const panel = moderator.getByRole('region', { name: 'Selected report' });
    await panel.getByRole('heading', { name: new RegExp(title), level: 2 }).waitFor();
    await panel
      .getByText('The photos are missing and the same camera is listed on another site for sale.', {
        exact: true,
      })
      .waitFor();
    await panel.getByText('Reported by Jordan Lee', { exact: false }).waitFor();
    await expectAccessible(moderator);

    await panel.getByLabel('Moderator notes').fill('Listing copied from a resale site.');
    await panel.getByRole('button', { name: 'Hide item' }).click();
    const confirm = moderator.getByRole('alertdialog', { name: `Hide “${title}”?` });
    await expectAccessible(moderator);
    await confirm.getByRole('button', { name: 'Hide item' }).click();
    await moderator.getByText('Item hidden', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Unhide' }).waitFor();
    await panel.getByText('hid the item', { exact: false }).waitFor();
    await panel.getByText('Listing copied from a resale site.', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Resolve' }).click();
    await moderator.getByText('Report resolved', { exact: true }).waitFor();
    await panel.getByText('Resolved by Morgan Reyes', { exact: false }).waitFor();
    // The moderator still reaches the item's page, marked hidden.
    await moderator.goto(`/item/${itemId}`);
    await moderator.getByText('Hidden by a moderator', { exact: false }).waitFor();
    expect(await moderator.getByRole('button', { name: 'Reserve Item' }).count()).toBe(0);
    await expectAccessible(moderator);

    // For everyone else it is gone: browse, search and its page.
    await reporter.goto(`/browse?q=${encodeURIComponent(title)}`);
    await reporter.getByText('No items found').waitFor();
    await reporter.goto(`/item/${itemId}`);
    await reporter.getByText("The item you're looking for doesn't exist.").waitFor();
    await expectAccessible(reporter);
    const visitor = await b.newPage();
    await visitor.goto('/browse');
    await visitor.getByText('items found', { exact: false }).first().waitFor();
    expect(await visitor.getByRole('link', { name: title }).count()).toBe(0);

    // Its owner still sees it, told why.
    await owner.goto(`/item/${itemId}`);
    await owner.getByText("CampusLoop's moderators hid this listing", { exact: false }).waitFor();
    await expectAccessible(owner);
  });

  it('a student reports a user from their profile; /admin is for moderators only', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await signIn(page, 'diego.ramirez@stanford.edu');
    await page.goto('/browse?q=calculator');
    await page.getByRole('link', { name: /TI-84/ }).first().click();
    await page
      .getByRole('link', { name: /Maya Chen/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Maya Chen', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Report User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report User' });
    await dialog.getByLabel('Reason').selectOption({ label: 'Harassment' });
    await dialog.getByLabel('Description').fill('x'.repeat(1001));
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await dialog.getByText('Description too long').waitFor();
    await dialog.getByLabel('Description').fill('Kept messaging me at night after I declined to borrow.');
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await page.getByText('Report submitted successfully', { exact: true }).waitFor();
    await page.getByText('You reported this user. Our team is reviewing it.').waitFor();
    await expectAccessible(page);

    // Not a moderator: the user menu has no Admin link, and /admin says so.
    await page.getByRole('button', { name: 'Account menu for Diego Ramirez' }).first().click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Moderators only' }).waitFor();
    await expectAccessible(page);

    // Signed out: off to sign in.
    const visitor = await b.newPage();
    await visitor.goto('/admin');
    await visitor.waitForURL((url) => url.pathname === '/login');
  });
});
