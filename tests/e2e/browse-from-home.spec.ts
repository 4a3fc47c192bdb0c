import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser } from './helpers.ts';

// A visitor searches from Home on a phone: Browse stays on the campus Home showed, instead of switching
// to every campus behind their back, and the campus is in the address (Back and a shared link keep it).

const b = setupBrowser();

describe('from Home to Browse on a phone', () => {
  for (const language of ['en', 'es'] as const) {
    it(`a search from Home stays on Home's campus (${language})`, async () => {
      const page = await b.newPage({ width: 375, height: 667 }, language === 'es' ? 'es' : undefined);
      await page.goto('/');
      // Home's campus is known once its items are in.
      await page.locator('a[href^="/item/"]').first().waitFor();
      const homeCampus = await page
        .locator('a[href^="/browse?campus="]')
        .first()
        .evaluate((a: HTMLAnchorElement) => new URL(a.href).searchParams.get('campus'));
      expect(homeCampus).toBeTruthy();
      expect(homeCampus).not.toBe('all');
      await page.getByRole('searchbox').first().fill('drill');
      await page.getByRole('searchbox').first().press('Enter');
      await page.waitForURL((url) => url.pathname === '/browse' && url.searchParams.get('q') === 'drill');
      expect(new URL(page.url()).searchParams.get('campus')).toBe(homeCampus);
      const everywhere =
        language === 'es'
          ? page.getByText('Encuentra lo que necesitas entre estudiantes de todos los campus.')
          : page.getByText('Find what you need from students on campuses everywhere.');
      await page
        .getByText(language === 'es' ? /artículos? encontrados?/ : /items? found/)
        .first()
        .waitFor();
      expect(await everywhere.count()).toBe(0);
      await expectAccessible(page);
      await page.context().close();
    });
  }
});
