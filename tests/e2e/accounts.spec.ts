import { describe, expect, inject, it } from 'vitest';
import { mailsTo, verificationLinkIn } from '../helpers/outbox.ts';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

describe('accounts journey', () => {
  it('registers with an auto-detected university, logs out and back in, and meets the auth guard', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    const tag = Date.now().toString(36);

    await page.goto('/register');
    await expectAccessible(page);
    await page.getByLabel('Full Name').fill('Rosa Parks');
    await page.getByLabel('Username').fill(`rosa_${tag}`);
    await page.getByLabel('University Email').fill(`rosa.${tag}@cs.stanford.edu`);
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    expect(await page.getByLabel('University', { exact: true }).textContent()).toContain(
      'Stanford University',
    );
    await page.getByLabel('Password', { exact: true }).fill('montgomery55');
    await page.getByRole('button', { name: 'Create Account' }).click();

    // Decision 023: "Check your inbox"; the link signs in.
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.getByText(`rosa.${tag}@cs.stanford.edu`).waitFor();
    await expectAccessible(page);
    const [mail] = await mailsTo(inject('outboxDir'), `rosa.${tag}@cs.stanford.edu`);
    await page.goto(verificationLinkIn(mail!));
    await page.getByRole('heading', { name: 'Your e-mail is verified' }).waitFor();
    await page.goto('/');
    await page
      .getByText('Welcome back, Rosa. See what Stanford University students are sharing today.')
      .waitFor();
    await expectAccessible(page);

    // The welcome notification waits in the bell (with the 'Verified Student' badge the link earned).
    await page.getByRole('button', { name: /^Notifications, [12] unread/ }).click();
    await page.getByRole('menu').getByText('Welcome to CampusLoop!').waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Account menu for Rosa Parks' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText('You have been successfully logged out.', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Join Now' }).first().waitFor();

    // A guarded page, signed out, shows the card instead.
    await page.goto('/notifications');
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor();
    await page.getByText('You need to sign in to access this page').waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Sign In' }).last().click();

    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('University Email').fill(`ROSA.${tag}@cs.stanford.edu`);
    await page.getByLabel('Password', { exact: true }).fill('montgomery55');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText("You've been successfully logged in.", { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/notifications');
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page.getByRole('tab', { name: /^All Notifications \(\d+\)$/ }).click();
    const welcome = page
      .getByRole('tabpanel')
      .getByRole('listitem')
      .filter({ hasText: 'Welcome to CampusLoop!' });
    await welcome.waitFor();
    // Read once the list has loaded: the welcome and the badge the link earned.
    const unreadTab = page.getByRole('tab', { name: /^Unread \([12]\)$/ });
    const unread = Number((await unreadTab.textContent())?.match(/\((\d+)\)/)?.[1]);
    await welcome.getByRole('button', { name: 'Mark as read' }).click();
    await page.getByRole('tab', { name: `Unread (${unread - 1})` }).waitFor();
    await expectAccessible(page);
  });

  it('shows the server’s reasons when sign-in or sign-up fail, and the form’s own messages first', async () => {
    const page = await b.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid email address').waitFor();
    await page.getByText('Password is required').waitFor();

    await page.getByLabel('University Email').fill('maya.chen@stanford.edu');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Login failed', { exact: true }).waitFor();
    await page.getByText('Invalid email or password.', { exact: true }).waitFor();
    await expectAccessible(page);

    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Second Maya');
    await page.getByLabel('Username').fill('maya');
    await page.getByLabel('University Email').fill('someone@gmail.com');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Must be a valid university email address').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();
    await page.getByText('Campus is required').waitFor();

    // Choose the university by hand, then meet the server's duplicate-username answer.
    await page.getByLabel('University Email').fill('second.maya@stanford.edu');
    await page.getByLabel('Password', { exact: true }).fill('long-enough');
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Registration failed', { exact: true }).waitFor();
    await page.getByText('That username is already taken. Please choose another.').first().waitFor();
  });

  it('lets a person pick a university by searching when the domain is unknown', async () => {
    const page = await b.newPage();
    await page.goto('/register');
    await page.getByLabel('University Email').fill('lee@students.example.edu');
    await page.getByText('University not auto-detected. Please select manually.').waitFor();
    await page.getByLabel('University', { exact: true }).click();
    const search = page.getByRole('combobox', { name: 'Search universities' });
    await search.fill('zzqqxx');
    await page.getByText('No universities found.').waitFor();
    await page.getByText('Try searching by name, city, or state').waitFor();
    await search.fill('berkeley');
    await page.getByRole('group', { name: 'California' }).waitFor();
    await page.getByRole('option', { name: /University of California-Berkeley/ }).waitFor();
    await expectAccessible(page);
    await search.press('ArrowDown');
    await page.getByRole('option', { name: /University of California-Berkeley/ }).click();
    expect(await page.getByLabel('University', { exact: true }).textContent()).toContain(
      'University of California-Berkeley',
    );
  });

  it('signs in a demo account', async () => {
    const page = await b.newPage();
    await signIn(page, 'maya.chen@stanford.edu');
    await page.getByRole('button', { name: 'Account menu for Maya Chen' }).click();
    await page.getByText('Stanford University').first().waitFor();
  });
});
