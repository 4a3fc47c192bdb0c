import { describe, expect, inject, it } from 'vitest';
import { newestMailTo, readOutbox, recipients, verificationLinkIn } from '../helpers/outbox.ts';
import { expectAccessible, setupBrowser } from './helpers.ts';

const b = setupBrowser();
const outboxDir = inject('outboxDir');

/** The newest verification link sent to `email`, once the server has written it. */
async function newestLink(email: string, after = 0): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const mails = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(email));
    if (mails.length > after) return verificationLinkIn(mails.at(-1)!);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no new verification e-mail to ${email} in ${outboxDir}`);
}

describe('verified e-mail journey', () => {
  it('a new user verifies through the link in the outbox', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    const tag = Date.now().toString(36);
    const email = `ida.${tag}@stanford.edu`;

    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Ida Wells');
    await page.getByLabel('Username').fill(`ida_${tag}`);
    await page.getByLabel('University Email').fill(email);
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('chicago1892');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // Until verified: a banner with Resend on every page.
    const banner = page.getByRole('region', { name: 'E-mail verification' });
    await banner.getByText('Verify your university e-mail.').waitFor();
    await banner.getByText(email).waitFor();
    await expectAccessible(page);
    const firstLink = await newestLink(email);

    // The Reserve dialog says so before any card is asked for.
    await page.goto('/browse?q=Cordless%20drill%20with%20bit%20set');
    await page
      .getByRole('link', { name: /Cordless drill with bit set/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Cordless drill with bit set', level: 1 }).waitFor();
    // The demo lender's verified mark on the item page.
    await page.getByTitle('Verified student').first().waitFor();
    await page.getByRole('button', { name: 'Reserve Item' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Verify your e-mail to reserve').waitFor();
    await dialog
      .getByText(`Please verify your university e-mail first. We sent a link to ${email}.`)
      .waitFor();
    expect(await dialog.getByRole('button', { name: 'Continue to Payment' }).count()).toBe(0);
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    // The List Item page tells them up front, and what they type stays.
    await page.goto('/list-item');
    const notice = page.getByRole('note');
    await notice.getByText('Verify your e-mail to list items').waitFor();
    await notice
      .getByText(`Please verify your university e-mail first. We sent a link to ${email}.`)
      .waitFor();
    await page.getByLabel('Title').fill('Bike pump');
    await page
      .getByLabel('Description')
      .fill('A floor pump with a pressure gauge, fits Presta and Schrader.');
    await page.getByLabel('Category').selectOption('tools');
    await page.getByLabel('Condition').selectOption('good');
    await page.getByRole('button', { name: 'List Item' }).click();
    await page
      .getByText('Failed to list item', { exact: true })
      .locator('..')
      .getByText(`Please verify your university e-mail first. We sent a link to ${email}.`)
      .waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('Bike pump');
    await expectAccessible(page);

    // Resend: a toast, and a new e-mail whose link replaces the first.
    const sentBefore = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(email)).length;
    await notice.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Verification e-mail sent', { exact: true }).waitFor();
    const link = await newestLink(email, sentBefore);
    expect(link).not.toBe(firstLink);
    expect(link.startsWith(`${b.baseURL}/verify-email?token=`)).toBe(true);

    // The link from the e-mail, opened in the same browser.
    await page.goto(link);
    await page.getByRole('heading', { name: 'Your e-mail is verified' }).waitFor();
    await page.getByText(email).first().waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'List an Item' }).click();
    await page.getByRole('heading', { name: 'List an Item', level: 1 }).waitFor();
    expect(await page.getByRole('note').count()).toBe(0);
    expect(await banner.count()).toBe(0);

    // A link works once; the replaced one no longer works at all.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This link was already used' }).waitFor();
    await page
      .getByText('This verification link has already been used. Your e-mail address is verified.')
      .waitFor();
    await page.goto(firstLink);
    await page.getByRole('heading', { name: 'Your e-mail is already verified' }).waitFor();
    await expectAccessible(page);

    // The profile shows the mark, as text.
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Ida Wells', level: 1 }).waitFor();
    await page.getByText('Verified student', { exact: true }).waitFor();
  });

  it('explains an expired link and offers a new one to its signed-in owner', async () => {
    const page = await b.newPage();
    const tag = Date.now().toString(36);
    const email = `lee.${tag}@stanford.edu`;
    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Lee Expired');
    await page.getByLabel('Username').fill(`lee_${tag}`);
    await page.getByLabel('University Email').fill(email);
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('too-late-now');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const first = await newestLink(email);

    // Resend from the banner replaces the first link, which then answers as expired.
    const before = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(email)).length;
    await page
      .getByRole('region', { name: 'E-mail verification' })
      .getByRole('button', { name: 'Resend' })
      .click();
    await page.getByText('Verification e-mail sent', { exact: true }).waitFor();
    const second = await newestLink(email, before);
    await page.goto(first);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await page
      .getByText(
        'This verification link has expired or was replaced by a newer one. Please request a new link.',
      )
      .waitFor();
    await page.getByRole('button', { name: 'Resend' }).waitFor();
    await expectAccessible(page);

    // Someone else's browser, signed out, with a link cut short.
    const stranger = await b.newPage({ width: 375, height: 812 });
    await stranger.goto(`${second.slice(0, -5)}`);
    await stranger.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await stranger.getByText('Sign in to get a new link.').waitFor();
    await expectAccessible(stranger);
    expect(await newestMailTo(outboxDir, email)).toBeDefined();
  });
});
