import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

// A toast never covers what the action just produced on a 375 × 667 phone: opening a chat shows who it
// is with and the way back, and the message box, all clear of the 'Chat started' toast.

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, 'element has no box (not shown)').not.toBeNull();
  return found!;
}

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  c: { x: number; y: number; width: number; height: number },
) {
  return a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;
}

describe('toasts keep clear of what an action produced (375 × 667)', () => {
  it("'Chat started' covers neither the chat's header and way back nor its message box", async () => {
    const page = await b.newPage(PHONE);
    // Alex asks Sam about Sam's microscope (demo data).
    await signIn(page, 'alex.kim@berkeley.edu');
    await page.goto(`/browse?q=${encodeURIComponent('Microscope for bio lab')}`);
    await page
      .getByRole('link', { name: /Microscope for bio lab/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Microscope for bio lab', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Chat with Seller' }).click();
    await page.waitForURL((url) => url.pathname === '/chat');
    const toast = page.locator('ol[data-placement] > li').first();
    await toast.getByText('Chat started').waitFor();
    const back = page.getByRole('button', { name: 'Back to conversations' });
    await back.waitFor();
    const composer = page.locator('form').filter({ has: page.getByLabel('Message', { exact: true }) });
    await composer.waitFor();
    // Placed where it stays (the toast area settles within a frame of being shown).
    await page.waitForFunction(() => {
      const li = document.querySelector('ol[data-placement] > li');
      return li?.getAnimations().every((a) => a.playState !== 'running');
    });
    const header = page.locator('[data-toast-avoid]').filter({ has: back });
    const shown = await box(toast);
    expect(overlaps(shown, await box(back)), 'the toast covers the way back').toBe(false);
    expect(overlaps(shown, await box(header)), "the toast covers the chat's header").toBe(false);
    expect(overlaps(shown, await box(composer)), 'the toast covers the message box').toBe(false);
    await expectAccessible(page);
  });
});
