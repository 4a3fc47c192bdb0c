import { describe, expect, inject, it } from 'vitest';
import { readOutbox, recipients, verificationLinkIn } from '../helpers/outbox.ts';
import { expectAccessible, setupBrowser } from './helpers.ts';

const b = setupBrowser();
const outboxDir = inject('outboxDir');

/** The newest verification link sent to `email`, once the server has written it. */
async function newestLink(email: string, after = 0): Promise<string> {
  const deadline = Date.now() + 60_000; // a bound for a mail that never comes, not for speed
  while (Date.now() < deadline) {
    const mails = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(email));
    if (mails.length > after) return verificationLinkIn(mails.at(-1)!);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no new verification e-mail to ${email} in ${outboxDir}`);
}

// Decision 023: registering signs nobody in. "Check your inbox" offers Resend (signed out, by address);
// the link verifies and signs in. (What an unverified, signed-in account may not do is covered by the
// API tests: such sessions only remain from before this change.)
describe('verified e-mail journey', () => {
  it('a new user resends the link from "Check your inbox", and the newest link signs them in', async () => {
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
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.getByText(email).first().waitFor();
    await expectAccessible(page);
    const firstLink = await newestLink(email);

    // The password alone opens nothing yet.
    const early = await page.request.post('/api/auth/login', {
      headers: { origin: b.baseURL },
      data: { email, password: 'chicago1892' },
    });
    expect(early.status()).toBe(403);

    // Resend: a toast, and a new e-mail whose link replaces the first.
    const sentBefore = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(email)).length;
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Verification e-mail sent', { exact: true }).waitFor();
    const link = await newestLink(email, sentBefore);
    expect(link).not.toBe(firstLink);
    expect(link.startsWith(`${b.baseURL}/verify-email?token=`)).toBe(true);

    // The replaced link says so; the newest one verifies and signs in.
    await page.goto(firstLink);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await page.getByRole('link', { name: 'Register Again' }).waitFor();
    await expectAccessible(page);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Your e-mail is verified' }).waitFor();
    await page.getByText(email).first().waitFor();
    await page.getByRole('button', { name: 'Account menu for Ida Wells' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'List an Item' }).click();
    await page.getByRole('heading', { name: 'List an Item', level: 1 }).waitFor();
    expect(await page.getByRole('note').count()).toBe(0);

    // A link works once.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This link was already used' }).waitFor();
    await page
      .getByText('This verification link has already been used. Your e-mail address is verified.')
      .waitFor();

    // The profile shows the mark, as text.
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Ida Wells', level: 1 }).waitFor();
    await page.getByText('Verified student', { exact: true }).waitFor();
  });

  it('a link cut short, opened signed out, says how to get a new one', async () => {
    const stranger = await b.newPage({ width: 375, height: 812 });
    await stranger.goto('/verify-email?token=abc');
    await stranger.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await stranger.getByText('Register again with the same address to get a new link.').waitFor();
    await expectAccessible(stranger);
  });
});
