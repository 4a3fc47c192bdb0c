import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { readOutbox, recipients } from '../helpers/outbox.ts';
import { DEMO_PASSWORD, expectAccessible, scriptRunning, setupBrowser } from './helpers.ts';

// "Back where I was": 'Login to Reserve', 'Login to Chat', the auth card's Sign In,
// registration and the verification link all return the student to the page they came from, with
// the Reserve dialog open when that is what they tapped; a return path to anywhere else is ignored.

const b = setupBrowser();
const outboxDir = inject('outboxDir');

async function openItemAsVisitor(page: Page, title: string) {
  await page.goto(`/browse?q=${encodeURIComponent(title)}`);
  await page
    .getByRole('link', { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
    .first()
    .click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  // A browse result pressed before the browse page's script ran loads the item page from the server:
  // its 'Login to …' links are plain links until the script runs, which say nothing before going.
  await scriptRunning(page);
  return new URL(page.url()).pathname;
}

async function fillSignIn(page: Page, email: string) {
  await page.getByLabel('University Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** The whole verification link (with its returnTo) of the newest e-mail to `email`. */
async function verificationLink(email: string): Promise<string> {
  // Sent after the 202 answer: on a busy machine that can take many seconds.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const mail = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(email)).at(-1);
    const link = mail?.text?.match(/https?:\/\/\S+\/verify-email\?\S+/)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification e-mail to ${email}`);
}

describe('back where I was', () => {
  it("'Login to Reserve' signs in and comes back with the Reserve dialog open", async () => {
    const page = await b.newPage({ width: 375, height: 667 });
    const itemPath = await openItemAsVisitor(page, 'Microscope for bio lab');
    await page.getByRole('link', { name: 'Login to Reserve' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe(`${itemPath}?reserve=1`);
    await fillSignIn(page, 'alex.kim@berkeley.edu');

    await page.waitForURL((url) => url.pathname === itemPath);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Reserve Microscope for bio lab' }).waitFor();
    await dialog.getByRole('button', { name: 'Continue to Payment' }).waitFor();
    await expectAccessible(page);
    // Closing it (the X, as on a phone) leaves the plain item page: a reload does not reopen it.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
  });

  it("'Login to Chat' says 'Login required', and registering and verifying come back to the item", async () => {
    const page = await b.newPage({ width: 375, height: 667 });
    const itemPath = await openItemAsVisitor(page, 'Microscope for bio lab');
    await page.getByRole('link', { name: 'Login to Chat' }).click();
    await page.getByText('Login required', { exact: true }).waitFor();
    await page.getByText('Please log in to chat with the seller.', { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe(itemPath);

    // No account yet: 'Create an account' keeps the way back.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe(itemPath);
    const tag = Date.now().toString(36);
    const email = `mae.${tag}@berkeley.edu`;
    await page.getByLabel('Full Name').fill('Mae Jemison');
    await page.getByLabel('Username').fill(`mae_${tag}`);
    await page.getByLabel('University Email').fill(email);
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('endeavour92');
    await page.getByRole('button', { name: 'Create Account' }).click();
    // Decision 023: "Check your inbox"; the link signs in.
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    // The verification e-mail's link carries the item page, signs in and brings them back to it.
    const link = await verificationLink(email);
    expect(new URL(link).searchParams.get('returnTo')).toBe(itemPath);
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === itemPath);
    await page.getByText('E-mail verified', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Microscope for bio lab', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Chat with Seller' }).waitFor();
    expect(await page.getByRole('region', { name: 'E-mail verification' }).count()).toBe(0);
  });

  it("the auth card's Sign In comes back to the guarded page", async () => {
    const page = await b.newPage({ width: 1280, height: 800 });
    await page.goto('/reservations');
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await fillSignIn(page, 'priya.patel@stanford.edu');
    await page.waitForURL((url) => url.pathname === '/reservations');
    await page.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
  });

  it('a return path off the site is ignored: signing in goes home', async () => {
    for (const hostile of [
      '//evil.example',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const page = await b.newPage({ width: 1280, height: 800 });
      await page.goto(`/login?returnTo=${encodeURIComponent(hostile)}`);
      // Nor does the page pass it on.
      expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
        '/register',
      );
      await fillSignIn(page, 'priya.patel@stanford.edu');
      await page.waitForURL((url) => url.pathname === '/');
      expect(new URL(page.url()).origin).toBe(b.baseURL);
      await page.context().close();
    }
  });
});
