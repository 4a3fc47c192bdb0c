import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser } from './helpers.ts';

const b = setupBrowser();

describe('the app shell and static pages', () => {
  it('shows the 404 page for an unknown path and matches routes case-insensitively', async () => {
    const page = await b.newPage();
    await page.goto('/DOES-not-exist');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await expectAccessible(page);

    await page.goto('/ABOUT');
    await page.getByRole('heading', { name: 'How It Works', level: 1 }).waitFor();
  });

  it('opens every footer page with real content, on a phone and on a desktop', async () => {
    for (const viewport of [
      { width: 375, height: 812 },
      { width: 1280, height: 900 },
    ]) {
      const page = await b.newPage(viewport);
      await page.goto('/');
      await page.getByRole('heading', { name: "Borrow what you need, lend what you don't." }).waitFor();
      await expectAccessible(page);
      const footer = page.getByRole('contentinfo');
      const links = [
        ['How it Works', 'How It Works'],
        ['Stories', 'Community Stories'],
        ['Partners', 'Campus Partners'],
        ['Help Center', 'Help Center'],
        ['Safety', 'Safety Guidelines'],
        ['Contact', 'Contact Us'],
        ['Privacy', 'Privacy Policy'],
        ['Terms', 'Terms of Service'],
      ] as const;
      for (const [link, heading] of links) {
        await footer.getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        const text = (await page.getByRole('main').textContent()) ?? '';
        expect(text.length, `${link} has content`).toBeGreaterThan(600);
        await expectAccessible(page);
        // Nothing sticks out sideways on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${link} fits the viewport`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('says the spec’s words on the legal, safety and contact pages', async () => {
    const page = await b.newPage();
    await page.goto('/terms');
    await page.getByText('California', { exact: false }).first().waitFor();
    await page.getByText('January 2024', { exact: false }).first().waitFor();
    await page.goto('/safety');
    await page.getByText('911', { exact: false }).first().waitFor();
    for (const item of [
      'weapons or dangerous items',
      'hazardous materials',
      'items requiring special licenses',
    ]) {
      await page.getByText(item, { exact: false }).first().waitFor();
    }
    await page.goto('/contact');
    await page.getByText('24-48 hours', { exact: false }).first().waitFor();
  });
});
