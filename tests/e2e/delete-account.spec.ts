import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { mailsTo, verificationLinkIn } from '../helpers/outbox.ts';
import { expectAccessible, journeySteps, setupBrowser } from './helpers.ts';

// Decision 023: a new student registers ("Check your inbox", then the link signs
// them in), lists an item, downloads their data, and deletes their account from /settings/data.

const b = setupBrowser();
const outboxDir = inject('outboxDir');
const tag = Date.now().toString(36);
const email = `leaver.${tag}@stanford.edu`;
const password = 'goodbye-campus';
const title = `Graphing calculator ${tag}`;
let page: Page;
let itemId = '';

describe('delete account journey', () => {
  journeySteps();

  it('registers, sees "Check your inbox", and is signed in by the link', async () => {
    page = await b.newPage({ width: 375, height: 800 });
    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Lee Leaver');
    await page.getByLabel('Username').fill(`leaver_${tag}`);
    await page.getByLabel('University Email').fill(email);
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.getByRole('status').filter({ hasText: email }).waitFor();
    await page.getByRole('button', { name: 'Resend' }).waitFor();

    const [mail] = await mailsTo(outboxDir, email);
    await page.goto(verificationLinkIn(mail!));
    await page.getByRole('heading', { name: 'Your e-mail is verified' }).waitFor();
    await page.getByRole('button', { name: 'Account menu for Lee Leaver' }).waitFor();
  });

  it('lists an item, then downloads their data from /settings/data', async () => {
    const listed = await page.request.post('/api/items', {
      headers: { origin: b.baseURL },
      data: {
        title,
        description: 'A graphing calculator with a fresh set of batteries.',
        category: 'electronics',
        condition: 'good',
        pickupMethod: 'meetup',
        pickupLocation: 'Green Library',
        availableFrom: '2026-01-01',
        availableDays: [0, 1, 2, 3, 4, 5, 6],
        images: [],
      },
    });
    expect(listed.status(), await listed.text()).toBe(201);
    itemId = (await listed.json()).item.id;

    await page.goto('/settings');
    await page.getByRole('link', { name: /Your data/ }).click();
    await page.waitForURL((url) => url.pathname === '/settings/data');
    await page.getByRole('heading', { name: 'Your Data', level: 1 }).waitFor();
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^campusloop-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(data.profile).toMatchObject({ email, fullName: 'Lee Leaver' });
    expect(data.items.map((i: { title: string }) => i.title)).toEqual([title]);
  });

  it('deletes the account: a wrong password is refused, the right one signs out everywhere', async () => {
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Current Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Your current password is not correct.').waitFor();

    await dialog.getByLabel('Current Password').fill(password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Account deleted', { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Join Now' }).first().waitFor();

    // The listing is gone, the session too, and a last e-mail confirms it.
    expect((await page.request.get(`/api/items/${itemId}`)).status()).toBe(404);
    expect((await (await page.request.get('/api/auth/me')).json()).user).toBeNull();
    const mails = await mailsTo(outboxDir, email, 1);
    expect(mails.at(-1)!.subject).toBe('Your CampusLoop account was deleted');
    // The password opens nothing any more.
    const login = await page.request.post('/api/auth/login', {
      headers: { origin: b.baseURL },
      data: { email, password },
    });
    expect(login.status()).toBe(401);
  });
});
