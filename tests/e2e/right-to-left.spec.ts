import { describe, expect, it } from 'vitest';
import { setupBrowser } from './helpers.ts';

// The layout follows the page's direction (logical CSS, src/web/logical-css.test.ts),
// so a right-to-left language needs no redesign. Rendered once with dir="rtl" at phone size: the
// header's logo moves to the right, the search box's icon to its right end, and nothing is pushed
// off the screen sideways.

const b = setupBrowser();
const PHONE = { width: 375, height: 812 };

describe('right to left', () => {
  it('Home and Browse mirror with dir="rtl", and nothing overflows sideways', async () => {
    const page = await b.newPage(PHONE);
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () =>
        document.documentElement.setAttribute('dir', 'rtl'),
      );
    });
    for (const path of ['/', '/browse']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      const logo = await page
        .getByRole('link', { name: /CampusLoop/ })
        .first()
        .boundingBox();
      expect(logo!.x + logo!.width / 2, `${path}: the logo is on the right`).toBeGreaterThan(PHONE.width / 2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
    }
    // The search icon sits at the start of the box: its right end in a right-to-left page.
    await page.goto('/');
    const box = await page.getByRole('searchbox').first().boundingBox();
    const icon = await page.locator('search svg').first().boundingBox();
    expect(icon!.x).toBeGreaterThan(box!.x + box!.width / 2);
    await page.screenshot({ path: '/tmp/shots/rtl-home.png' }).catch(() => undefined);
  });
});
