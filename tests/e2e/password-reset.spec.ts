import { describe, expect, inject, it } from 'vitest';
import { passwordResetLinkIn, readOutbox, recipients } from '../helpers/outbox.ts';
import { expectAccessible, setupBrowser, signIn, verifyFromOutbox } from './helpers.ts';

// A student who forgot their password asks for a link on their phone, sets a new password
// from the e-mail, and is signed in there; the laptop they were signed in on is signed out.

const b = setupBrowser();
const outboxDir = inject('outboxDir');

/** The newest reset link sent to `email`, once the server has written it. */
async function newestResetLink(email: string): Promise<string> {
  const deadline = Date.now() + 60_000; // a bound for a mail that never comes, not for speed
  while (Date.now() < deadline) {
    const mails = (await readOutbox(outboxDir)).filter(
      (m) => recipients(m).includes(email) && m.subject === 'Reset your CampusLoop password',
    );
    if (mails.length > 0) return passwordResetLinkIn(mails.at(-1)!);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no password reset e-mail to ${email} in ${outboxDir}`);
}

describe('password reset journey', () => {
  it('forgot password → e-mail → new password → signed in here, signed out elsewhere', async () => {
    const tag = Date.now().toString(36);
    const email = `grace.${tag}@stanford.edu`;
    const oldPassword = 'cobol1959';
    const newPassword = 'nanosecond-wire';

    // The laptop: an account, signed in.
    const laptop = await b.newPage({ width: 1280, height: 800 });
    const registered = await laptop.request.post('/api/auth/register', {
      headers: { origin: b.baseURL },
      data: {
        fullName: 'Grace Hopper',
        username: `grace_${tag}`,
        email,
        campus: 'stanford.edu',
        password: oldPassword,
      },
    });
    expect(registered.status()).toBe(202);
    await verifyFromOutbox(laptop, outboxDir, email);
    await laptop.goto('/');
    await laptop.getByRole('button', { name: 'Account menu for Grace Hopper' }).waitFor();

    // The phone: the sign-in page's 'Forgot password?', reached by keyboard, carries the address.
    const phone = await b.newPage({ width: 375, height: 812 });
    await phone.goto('/login');
    await phone.getByLabel('University Email').fill(email);
    await phone.getByLabel('Password', { exact: true }).focus();
    await phone.keyboard.press('Tab'); // the show/hide toggle
    await phone.keyboard.press('Tab');
    expect(await phone.evaluate(() => document.activeElement?.textContent)).toBe('Forgot password?');
    await phone.keyboard.press('Enter');
    await phone.waitForURL((url) => url.pathname === '/forgot-password');
    await phone.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(await phone.getByLabel('University Email').inputValue()).toBe(email);
    await expectAccessible(phone);
    await phone.getByRole('button', { name: 'Send Reset Link' }).click();
    await phone
      .getByRole('status')
      .getByText(`If an account uses ${email}, we've sent a link to reset its password.`)
      .waitFor();
    await expectAccessible(phone);

    // The link from the e-mail, opened on the phone.
    const link = await newestResetLink(email);
    expect(link.startsWith(`${b.baseURL}/reset-password?token=`)).toBe(true);
    await phone.goto(link);
    await phone.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expectAccessible(phone);
    await phone.getByLabel('New Password', { exact: true }).fill(newPassword);
    await phone.getByLabel('Confirm New Password').fill('nanosecond-wir');
    await phone.getByRole('button', { name: 'Set New Password' }).click();
    await phone.getByText('The passwords do not match').waitFor();
    await phone.getByLabel('Confirm New Password').fill(newPassword);
    await phone.getByRole('button', { name: 'Set New Password' }).click();
    await phone.getByRole('heading', { name: 'Your password has been changed' }).waitFor();
    await phone.getByText(`You're signed in as ${email} on this device.`).waitFor();
    await expectAccessible(phone);

    // Signed in on the phone...
    await phone.getByRole('link', { name: 'Go to Home' }).click();
    await phone.waitForURL((url) => url.pathname === '/');
    await phone.getByText('Welcome back, Grace.', { exact: false }).waitFor();
    expect((await (await phone.request.get('/api/auth/me')).json()).user.email).toBe(email);

    // ...and the laptop's session is gone.
    expect((await (await laptop.request.get('/api/auth/me')).json()).user).toBeNull();
    await laptop.reload();
    await laptop.getByRole('link', { name: 'Join Now' }).first().waitFor();

    // The link worked once.
    await phone.goto(link);
    await phone.getByRole('button', { name: 'Set New Password' }).waitFor();
    await phone.getByLabel('New Password', { exact: true }).fill('third-time');
    await phone.getByLabel('Confirm New Password').fill('third-time');
    await phone.getByRole('button', { name: 'Set New Password' }).click();
    await phone.getByRole('heading', { name: 'This link was already used' }).waitFor();
    await phone.getByRole('link', { name: 'Request a new link' }).waitFor();
    await expectAccessible(phone);

    // The new password signs in anywhere; the old one does not.
    const elsewhere = await b.newPage();
    await elsewhere.goto('/login');
    await elsewhere.getByLabel('University Email').fill(email);
    await elsewhere.getByLabel('Password', { exact: true }).fill(oldPassword);
    await elsewhere.getByRole('button', { name: 'Sign In' }).click();
    await elsewhere.getByText('Invalid email or password.', { exact: true }).waitFor();
    await signIn(elsewhere, email, newPassword);
  });

  it('says so when a link is cut off, with a way to ask for a new one', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await page.goto('/reset-password?token=abc');
    await page.getByRole('heading', { name: 'This link is not complete' }).waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
  });
});
