import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser } from './helpers.ts';

const b = setupBrowser();

describe('the app shell and static pages', () => {
  it('shows the 404 page for an unknown path', async () => {
    const page = await b.newPage();
    await page.goto('/does-not-exist');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await expectAccessible(page);
  });

  it('matches routes case-insensitively', async () => {
    const page = await b.newPage();
    await page.goto('/ABOUT');
    await page.getByRole('heading', { name: 'How It Works', level: 1 }).waitFor();
    await page.goto('/DOES-not-exist');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  });

  it('offers Get Started and Browse Items on About, each to its page', async () => {
    const page = await b.newPage();
    await page.goto('/about');
    const ready = page.getByRole('region', { name: 'Ready to start sharing?' });
    expect(await ready.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/register');
    await ready.getByRole('link', { name: 'Browse Items' }).click();
    await page.getByRole('heading', { name: 'Browse Items', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/browse');
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

const FOOTER_PAGES = [
  ['How it Works', 'How It Works'],
  ['Stories', 'Community Stories'],
  ['Partners', 'Campus Partners'],
  ['Help Center', 'Help Center'],
  ['Safety', 'Safety Guidelines'],
  ['Contact', 'Contact Us'],
  ['Privacy', 'Privacy Policy'],
  ['Terms', 'Terms of Service'],
] as const;

// One visitor per screen size walks the footer from Home, page to page: the app loads once and every
// link is a navigation inside it (about a tenth of a fresh load, measured). Each page is its
// own test, so a failure names it; any page's footer leads to the next, so each test stands alone.
for (const [screen, viewport] of [
  ['a phone', { width: 375, height: 812 }],
  ['a desktop', { width: 1280, height: 900 }],
] as const) {
  describe(`the footer on ${screen}`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await b.newPage(viewport);
      await page.goto('/');
      await page.getByRole('heading', { name: "Borrow what you need, lend what you don't." }).waitFor();
    });

    it('starts from a home page that passes axe', async () => {
      expect(new URL(page.url()).pathname).toBe('/');
      await expectAccessible(page);
    });

    it.each(FOOTER_PAGES)('opens %s: real content that fits the screen', async (link, heading) => {
      await page.getByRole('contentinfo').getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      const text = (await page.getByRole('main').textContent()) ?? '';
      expect(text.length, `${link} has content`).toBeGreaterThan(600);
      // Nothing sticks out sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${link} fits the viewport`).toBeLessThanOrEqual(0);
      await expectAccessible(page);
    });
  });
}
