import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readOutbox, recipients, tokenOf, verificationLinkIn } from '../helpers/outbox.ts';
import { expectAccessible, journeySteps, setupBrowser } from './helpers.ts';

// Account settings: a student changes their photo and sees it in the header and as the
// lender on their item's page, changes their name, and signs their phone out from the laptop.

const b = setupBrowser();
const outboxDir = inject('outboxDir');
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const tag = Date.now().toString(36);
const email = `ada.${tag}@stanford.edu`;
const password = 'analytical-engine';
let photo = '';
let laptop: Page;
let phone: Page;
let itemPath = '';

/** The verification link sent to `email`, once the server has written it. */
async function verificationLink(): Promise<string> {
  const deadline = Date.now() + 60_000; // a bound for a mail that never comes, not for speed
  while (Date.now() < deadline) {
    const mail = (await readOutbox(outboxDir)).find((m) => recipients(m).includes(email));
    if (mail) return verificationLinkIn(mail);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no verification e-mail to ${email}`);
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-avatar-'));
  photo = path.join(dir, 'portrait.jpg');
  // Wider than tall: the server crops it square.
  writeFileSync(
    photo,
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#7c3aed' } })
      .jpeg()
      .toBuffer(),
  );
});

/** The src of the header's account avatar (an <img> once there is a photo). */
const headerAvatar = (page: Page, name: string) =>
  page.getByRole('button', { name: `Account menu for ${name}` }).locator('img');

/** The Listed by card of an item page. */
const listedBy = (page: Page) =>
  page.locator('div', { has: page.getByRole('heading', { name: 'Listed by' }) }).last();

describe('account settings journey', () => {
  journeySteps();

  it('a verified student with a listing opens Settings from the user menu', async () => {
    laptop = await b.newPage({ width: 1280, height: 900 });
    const registered = await laptop.request.post('/api/auth/register', {
      headers: { origin: b.baseURL },
      data: { fullName: 'Ada Lovelace', username: `ada_${tag}`, email, campus: 'stanford.edu', password },
    });
    expect(registered.status(), await registered.text()).toBe(202);
    const verified = await laptop.request.post('/api/auth/verify-email', {
      headers: { origin: b.baseURL },
      data: { token: tokenOf(await verificationLink()) },
    });
    expect(verified.status()).toBe(200);
    const listed = await laptop.request.post('/api/items', {
      headers: { origin: b.baseURL },
      data: {
        title: `Difference engine kit ${tag}`,
        description: 'A brass difference engine model kit, all gears included.',
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
    itemPath = `/item/${(await listed.json()).item.id}`;

    await laptop.goto('/');
    await laptop.getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
    await laptop.getByRole('menuitem', { name: 'Settings' }).click();
    await laptop.waitForURL((url) => url.pathname === '/settings');
    await laptop.getByRole('heading', { name: 'Account Settings', level: 1 }).waitFor();
    await laptop.getByRole('heading', { name: 'Active Sessions' }).waitFor();
    await laptop.getByText('You are signed in on this device only.').waitFor();
    await expectAccessible(laptop);
  });

  it('changes the photo and sees it in the header and as the lender on the item page', async () => {
    // Before: the initial, no picture.
    expect(await headerAvatar(laptop, 'Ada Lovelace').count()).toBe(0);
    await laptop.locator('#profile-photo').setInputFiles(photo);
    await laptop.getByText('Photo updated', { exact: true }).first().waitFor();
    const avatar = headerAvatar(laptop, 'Ada Lovelace');
    await avatar.waitFor();
    const src = (await avatar.getAttribute('src')) ?? '';
    expect(src).toMatch(/\/avatars\/.+-thumb\.jpg$/);
    // The picture really loads, square.
    const size = await avatar.evaluate((img: HTMLImageElement) =>
      img.decode().then(() => [img.naturalWidth, img.naturalHeight]),
    );
    expect(size).toEqual([128, 128]);
    await laptop.getByRole('button', { name: 'Change Photo' }).waitFor();

    await laptop.goto(itemPath);
    const card = listedBy(laptop);
    await card.getByText('Ada Lovelace').waitFor();
    expect(await card.locator('img').getAttribute('src')).toBe(src);
  });

  it('changes the name, and the header and the item page say the new one', async () => {
    await laptop.goto('/settings');
    await laptop.getByLabel('Full Name').fill('Ada King');
    await laptop.getByRole('button', { name: 'Save Changes' }).click();
    await laptop.getByText('Profile saved', { exact: true }).first().waitFor();
    await laptop.getByRole('button', { name: 'Account menu for Ada King' }).waitFor();

    await laptop.goto(itemPath);
    await listedBy(laptop).getByText('Ada King').waitFor();
    expect(await listedBy(laptop).getByText('Ada Lovelace').count()).toBe(0);
  });

  it('signs the phone out from the laptop ("Sign out of other sessions")', async () => {
    phone = await b.newPage({ width: 375, height: 812 });
    const signedIn = await phone.request.post('/api/auth/login', {
      headers: { origin: b.baseURL, 'user-agent': ANDROID_CHROME },
      data: { email, password },
    });
    expect(signedIn.status()).toBe(200);
    await phone.goto('/');
    await phone.getByRole('button', { name: 'Account menu for Ada King' }).first().waitFor();

    await laptop.goto('/settings');
    const sessions = laptop.getByRole('list', { name: 'Signed-in devices' });
    await sessions.getByText('Chrome on Android').waitFor();
    await sessions.getByText('This device').waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    await laptop.getByRole('button', { name: 'Sign out of other sessions' }).click();
    await laptop.getByText('1 other session was signed out.').first().waitFor();
    await laptop.getByText('You are signed in on this device only.').waitFor();
    expect(await sessions.getByText('Chrome on Android').count()).toBe(0);

    // The phone is signed out; the laptop is not.
    await phone.reload();
    await phone.getByRole('link', { name: 'Join Now' }).first().waitFor();
    expect((await (await phone.request.get('/api/auth/me')).json()).user).toBeNull();
    expect((await (await laptop.request.get('/api/auth/me')).json()).user.fullName).toBe('Ada King');
  });

  it('works at phone size, by keyboard', async () => {
    const small = await b.newPage({ width: 375, height: 812 });
    const signedIn = await small.request.post('/api/auth/login', {
      headers: { origin: b.baseURL },
      data: { email, password },
    });
    expect(signedIn.status()).toBe(200);
    await small.goto('/settings');
    await small.getByRole('heading', { name: 'Account Settings', level: 1 }).waitFor();
    await small.getByRole('list', { name: 'Signed-in devices' }).waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(small);
    // The password form by keyboard: a wrong current password is told on its field.
    await small.getByLabel('Current Password', { exact: true }).last().focus();
    await small.keyboard.type('not-my-password');
    await small.getByLabel('New Password', { exact: true }).fill('new-analytical');
    await small.getByLabel('Confirm New Password').fill('new-analytical');
    await small.getByLabel('Confirm New Password').press('Enter');
    await small.getByText('Your current password is not correct.').waitFor();
  });
});
