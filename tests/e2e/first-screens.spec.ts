import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser } from './helpers.ts';

// What a new student meets first on a phone: no error before anything was typed, a search hint that
// shows whole, and a new lender's profile that does not lead with figures that mean nothing yet.

const b = setupBrowser();
const phone = { width: 375, height: 667 };

/** Whether the search field's placeholder fits inside the field, in the field's own font. */
async function placeholderFits(page: Page): Promise<{ text: string; fits: boolean }> {
  return page
    .getByRole('searchbox')
    .first()
    .evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room =
        input.clientWidth -
        Number.parseFloat(style.paddingInlineStart) -
        Number.parseFloat(style.paddingInlineEnd);
      return { text: input.placeholder, fits: context.measureText(input.placeholder).width <= room };
    });
}

describe('first screens on a phone', () => {
  for (const language of ['en', 'es'] as const) {
    it(`Register says a university was not found only after an address failed (${language})`, async () => {
      const page = await b.newPage(phone, language === 'es' ? 'es' : undefined);
      await page.goto('/register');
      const email = page.locator('#email');
      await email.waitFor();
      const failed =
        language === 'es'
          ? 'No detectamos tu universidad. Elígela manualmente.'
          : 'University not auto-detected. Please select manually.';
      await page.locator('#campus-hint').waitFor();
      expect(await page.getByText(failed).count()).toBe(0);
      await expectAccessible(page);

      await email.fill('ada@nowhere-college.edu');
      await page.getByText(failed).waitFor();
      await page.context().close();
    });

    it(`Home's search hint shows whole at 375 px (${language})`, async () => {
      const page = await b.newPage(phone, language === 'es' ? 'es' : undefined);
      await page.goto('/');
      await page.getByRole('searchbox').first().waitFor();
      const { text, fits } = await placeholderFits(page);
      expect(fits, `"${text}" is cut`).toBe(true);
      await page.context().close();
    });
  }

  it("a new lender's profile does not lead with 'Cancelled 0 of 1 borrow'", async () => {
    const page = await b.newPage(phone);
    // A demo lender, as the profile would come for someone who has approved one borrow.
    const items = await (await page.request.get('/api/items?campus=all')).json();
    const lenderId = items.items[0].userId as string;
    await page.route(`**/api/users/${lenderId}`, async (route) => {
      const response = await route.fetch();
      const profile = await response.json();
      profile.stats.lenderCancellations = { cancelled: 0, approved: 1 };
      await route.fulfill({ response, json: profile });
    });
    await page.goto(`/profile/${lenderId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByText('Items Listed').waitFor();
    expect(await page.getByText(/^Cancelled \d+ of/).count()).toBe(0);
    await page.context().close();
  });
});
