import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupBrowser } from './helpers.ts';

// A student types the moment a field appears, on a phone that may be slow: what they typed stays.
// Each run is a fresh browser (nothing cached), so the next page's code is still on its way when the
// link is pressed; the CPU slowed 6× stands for a cheap phone.

const b = setupBrowser();
const phone = { width: 375, height: 667 };

async function slowPhone(): Promise<Page> {
  const page = await b.newPage(phone);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  return page;
}

describe('typing as soon as a page opens', () => {
  it("keeps what was typed on 'Forgot password?', every time, also on a slow phone", async () => {
    for (let run = 0; run < 6; run++) {
      const page = run % 2 === 0 ? await b.newPage(phone) : await slowPhone();
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      const address = `typed.${run}@stanford.edu`;
      // At once: the first field with this label that can be typed into.
      await page.getByLabel('University Email').fill(address);
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      // The page has settled: its code is here and the form has been drawn with what was typed.
      await page.waitForLoadState('networkidle');
      expect(await page.getByLabel('University Email').inputValue(), `run ${run}`).toBe(address);
      if (run === 5) {
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
      }
      await page.context().close();
    }
  });

  it('keeps what was typed on sign-in and register, also on a slow phone', async () => {
    for (let run = 0; run < 4; run++) {
      const page = run % 2 === 0 ? await b.newPage(phone) : await slowPhone();
      await page.goto('/');
      await page.getByRole('link', { name: 'Sign In' }).first().click();
      await page.getByLabel('University Email').fill('ada@stanford.edu');
      await page.waitForLoadState('networkidle');
      expect(await page.getByLabel('University Email').inputValue()).toBe('ada@stanford.edu');

      await page.goto('/login');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Full Name').fill('Ada Lovelace');
      await page.getByRole('heading', { name: 'Join CampusLoop' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByLabel('Full Name').inputValue()).toBe('Ada Lovelace');
      await page.context().close();
    }
  });

  it('keeps a search typed into a pre-rendered page before its code has arrived', async () => {
    for (const [path, slow] of [
      ['/', false],
      ['/browse', true],
    ] as const) {
      const page = slow ? await slowPhone() : await b.newPage(phone);
      // The page's code waits until the student has typed: the field is the server's HTML only.
      let release = () => {};
      const typed = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/assets\/.*\.js$/, async (route) => {
        await typed;
        await route.continue();
      });
      await page.goto(path, { waitUntil: 'commit' });
      const search = page.getByRole('searchbox').first();
      await search.fill('tent');
      release();
      // Hydrated, and every request the page makes answered.
      await page.waitForLoadState('networkidle');
      expect(await search.inputValue(), path).toBe('tent');
      await page.context().close();
    }
  });
});
