import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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

/** Calls the real API as the signed-in page's person (same origin, their cookie). */
async function call(page: Page, path: string, data: unknown) {
  const response = await page.request.post(path, { headers: { origin: b.baseURL }, data });
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** What Jordan writes; each report's own, since the moderator's panel lists the owner's other reports too. */
const reportText = (title: string) =>
  `The photos of the ${title} are missing and it is listed on another site.`;

// Priya lists a camera, Jordan (on a phone) reports it, Morgan moderates. Each test starts from a
// listing of its own, brought through the API to where its part begins, and checks that part.
describe('reports and moderation journey', () => {
  let owner: Page;
  let reporter: Page;
  let moderator: Page;

  beforeAll(async () => {
    owner = await b.newPage();
    reporter = await b.newPage({ width: 375, height: 812 });
    moderator = await b.newPage();
    await signIn(owner, 'priya.patel@stanford.edu');
    await signIn(reporter, 'jordan.lee@stanford.edu');
    await signIn(moderator, 'moderator@stanford.edu');
  });

  /** A fresh listing of Priya's, reported by Jordan. */
  async function reportedListing() {
    const title = `Retro film camera ${Date.now().toString(36)}`;
    const itemId = await listItem(owner, title);
    await call(reporter, '/api/reports', {
      reason: 'fake_listing',
      description: reportText(title),
      reportedItemId: itemId,
    });
    return { title, itemId };
  }

  it('a student reports an item from its page', async () => {
    const title = `Retro film camera ${Date.now().toString(36)}`;
    await listItem(owner, title);
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
    await dialog.getByLabel('Description').fill(reportText(title));
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await reporter.getByText('Report submitted successfully', { exact: true }).waitFor();
    await reporter.getByText('You reported this item. Our team is reviewing it.').waitFor();
  });

  it('a moderator opens the queue from the user menu and reads the report', async () => {
    const { title } = await reportedListing();
    await moderator.goto('/');
    await moderator.getByRole('button', { name: 'Account menu for Morgan Reyes' }).click();
    await moderator.getByRole('menuitem', { name: 'Admin' }).click();
    await moderator.waitForURL((url) => url.pathname === '/admin');
    await moderator.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    await moderator.getByRole('tab', { name: /^Pending \(\d+\)$/ }).waitFor();
    await expectAccessible(moderator);
    await moderator.getByRole('link', { name: new RegExp(title) }).click();
    const panel = moderator.getByRole('region', { name: 'Selected report' });
    await panel.getByRole('heading', { name: new RegExp(title), level: 2 }).waitFor();
    await panel.getByText(reportText(title), { exact: true }).waitFor();
    await panel.getByText('Reported by Jordan Lee', { exact: false }).waitFor();
    await expectAccessible(moderator);
  });

  it('a moderator hides the item and resolves the report', async () => {
    const { title, itemId } = await reportedListing();
    await moderator.goto('/admin');
    await moderator.getByRole('link', { name: new RegExp(title) }).click();
    const panel = moderator.getByRole('region', { name: 'Selected report' });
    await panel.getByRole('heading', { name: new RegExp(title), level: 2 }).waitFor();
    await panel.getByLabel('Moderator notes').fill('Listing copied from a resale site.');
    await panel.getByRole('button', { name: 'Hide item' }).click();
    const confirm = moderator.getByRole('alertdialog', { name: `Hide “${title}”?` });
    await confirm.waitFor();
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
  });

  it('a hidden item is gone for everyone but its owner, who is told why', async () => {
    const { title, itemId } = await reportedListing();
    await call(moderator, `/api/admin/items/${itemId}/hide`, { note: 'Listing copied from a resale site.' });

    // Browse, search and its page. The search finds the other tests' cameras, never this one.
    await reporter.goto(`/browse?q=${encodeURIComponent(title)}`);
    await reporter
      .getByText(/\d+ items? found|No items found/)
      .first()
      .waitFor();
    expect(await reporter.getByRole('link', { name: title }).count()).toBe(0);
    await reporter.goto(`/item/${itemId}`);
    await reporter.getByText("The item you're looking for doesn't exist.").waitFor();
    await expectAccessible(reporter);
    const visitor = await b.newPage();
    await visitor.goto('/browse');
    await visitor.getByText('items found', { exact: false }).first().waitFor();
    expect(await visitor.getByRole('link', { name: title }).count()).toBe(0);

    await owner.goto(`/item/${itemId}`);
    await owner.getByText("CampusLoop's moderators hid this listing", { exact: false }).waitFor();
    await expectAccessible(owner);
  });

  it('a student reports a user from their profile', async () => {
    await reporter.goto('/browse?q=calculator');
    await reporter.getByRole('link', { name: /TI-84/ }).first().click();
    await reporter
      .getByRole('link', { name: /Maya Chen/ })
      .first()
      .click();
    await reporter.getByRole('heading', { name: 'Maya Chen', level: 1 }).waitFor();
    await reporter.getByRole('button', { name: 'Report User' }).click();
    const dialog = reporter.getByRole('dialog', { name: 'Report User' });
    await dialog.getByLabel('Reason').selectOption({ label: 'Harassment' });
    await dialog.getByLabel('Description').fill('x'.repeat(1001));
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await dialog.getByText('Description too long').waitFor();
    await dialog.getByLabel('Description').fill('Kept messaging me at night after I declined to borrow.');
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await reporter.getByText('Report submitted successfully', { exact: true }).waitFor();
    await reporter.getByText('You reported this user. Our team is reviewing it.').waitFor();
    await expectAccessible(reporter);
  });

  it('/admin is for moderators only', async () => {
    // Not a moderator: the user menu has no Admin link, and /admin says so.
    await reporter.goto('/');
    await reporter.getByRole('button', { name: 'Account menu for Jordan Lee' }).first().click();
    await reporter.getByRole('menuitem', { name: 'Profile' }).waitFor();
    expect(await reporter.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await reporter.keyboard.press('Escape');
    await reporter.goto('/admin');
    await reporter.getByRole('heading', { name: 'Moderators only' }).waitFor();
    await expectAccessible(reporter);

    // Signed out: off to sign in.
    const visitor = await b.newPage();
    await visitor.goto('/admin');
    await visitor.waitForURL((url) => url.pathname === '/login');
  });
});
