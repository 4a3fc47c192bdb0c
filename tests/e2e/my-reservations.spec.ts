import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  campusDay,
  expectAccessible,
  journeySteps,
  newStudent,
  paidRequestThroughApi,
  setupBrowser,
} from './helpers.ts';

// My Reservations on a 375 px phone: Lena has a request waiting, so the page opens on Lending and the
// tab says how many wait for her; the card answers with Approve and Decline (the bell's words), the
// handover is 'Picked Up' on both sides, and a wrong pickup code is said once, under its field. Bo
// reads it in Spanish: the tabs keep to one line and the rental is 'de alquiler'. Two students and an
// item of their own: other journeys share the server.

const b = setupBrowser();
const tag = Date.now().toString(36);
const day = campusDay;
const PHONE = { width: 375, height: 667 };

/** A tab on one line: a wrapped label would make it taller than its 44 px minimum. */
async function expectOneLine(tab: Locator) {
  const box = await tab.boundingBox();
  expect(box, 'the tab is shown').not.toBeNull();
  expect(box!.height, `${await tab.textContent()} fits on one line`).toBeLessThan(50);
}

async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('My Reservations on a phone', () => {
  journeySteps();
  let lena: Page;
  let bo: Page;
  const title = `Tripod ${tag}`;
  const cardOf = (page: Page) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

  beforeAll(async () => {
    [lena, bo] = await Promise.all([
      newStudent(b, { name: 'Lena', surname: 'Tabs', tag, viewport: PHONE }),
      newStudent(b, { name: 'Bo', surname: 'Tabs', tag, viewport: PHONE, language: 'es' }),
    ]);
    // The request as the Reserve dialog makes it: $8 for two days, the test card, then the request.
    await paidRequestThroughApi(
      lena,
      bo,
      { title, description: 'A sturdy aluminium tripod with a phone clamp and a carry bag.' },
      { startDate: day(2), endDate: day(4) },
    );
  });

  it('opens on Lending, where the request waits, and counts what waits on each tab', async () => {
    await lena.goto('/reservations');
    const lending = lena.getByRole('tab', { name: /^Lending \(1\)\s*,\s*1 waits for you$/ });
    await lending.waitFor();
    expect(await lending.getAttribute('aria-selected')).toBe('true');
    const borrowing = lena.getByRole('tab', { name: 'Borrowing (0)', exact: true });
    await borrowing.waitFor();
    await expectOneLine(lending);
    await expectOneLine(borrowing);
    await expectNoSideScroll(lena);

    // The lender answers with the bell's words; Cancel is not one of them while the request waits.
    const card = cardOf(lena);
    await card.getByRole('button', { name: 'Approve' }).waitFor();
    await card.getByRole('button', { name: 'Decline' }).waitFor();
    expect(await card.getByRole('button', { name: /^(Cancel|Reject)$/ }).count()).toBe(0);
    await expectAccessible(lena);
    await lena.screenshot({ path: '/tmp/my-reservations-lender-375.png' });

    // A tab the student picks stays in the address: a reload keeps it.
    await borrowing.click();
    await lena.waitForURL((url) => url.searchParams.get('tab') === 'borrowing');
    await lena.reload();
    await lena.getByRole('heading', { name: 'No borrowing reservations' }).waitFor();
    expect(await lena.getByRole('tab', { name: 'Borrowing (0)' }).getAttribute('aria-selected')).toBe('true');
  });

  it('the handover is Picked Up on both sides, and a wrong pickup code is said once, under its field', async () => {
    await lena.goto('/reservations');
    await lena.getByRole('tab', { name: /^Lending/ }).click();
    await cardOf(lena).getByRole('button', { name: 'Approve' }).click();
    await cardOf(lena).getByRole('button', { name: 'Cancel' }).waitFor();
    // The approval's toast goes; the next one, if any, would be the pickup's.
    await lena.reload();
    await lena.getByRole('tab', { name: /^Lending/ }).click();
    await cardOf(lena).getByRole('button', { name: 'Picked Up' }).click();
    const dialog = lena.getByRole('dialog', { name: 'Confirm pickup' });
    await dialog.getByLabel('Pickup code').fill('000000');
    // Any toast from here on is remembered, however briefly it shows.
    await lena.evaluate(() => {
      const seen = window as unknown as { toastsSeen: number };
      seen.toastsSeen = 0;
      new MutationObserver(() => {
        if (document.querySelector('ol[data-placement] > li')) seen.toastsSeen += 1;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await dialog.getByRole('button', { name: 'Confirm Pickup' }).click();
    await dialog.getByText(/That pickup code is not right/).waitFor();
    expect(await lena.getByText(/That pickup code is not right/).count()).toBe(1);
    await expectAccessible(lena);
    await lena.screenshot({ path: '/tmp/my-reservations-pickup-code-375.png' });
    // Closed after the answer has long arrived: a toast of it would still be showing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await lena.evaluate(() => (window as unknown as { toastsSeen: number }).toastsSeen)).toBe(0);
  });

  it('in Spanish the tabs keep to one line, the handover word is the same, and the rental is de alquiler', async () => {
    await bo.goto('/reservations');
    const borrowing = bo.getByRole('tab', { name: /^Pido prestado \(1\)\s*,\s*1 pendiente para ti$/ });
    await borrowing.waitFor();
    expect(await borrowing.getAttribute('aria-selected')).toBe('true');
    await expectOneLine(borrowing);
    await expectOneLine(bo.getByRole('tab', { name: /^Presto \(0\)/ }));
    await expectNoSideScroll(bo);
    const card = cardOf(bo);
    await card.getByText('$8.00 de alquiler').waitFor();
    await card.getByRole('button', { name: 'Recogido' }).waitFor();
    await expectAccessible(bo);
    await bo.screenshot({ path: '/tmp/my-reservations-es-375.png' });

    await bo.goto('/notifications');
    const tabs = bo.getByRole('tablist').getByRole('tab');
    await tabs.first().waitFor();
    for (const tab of await tabs.all()) await expectOneLine(tab);
    await expectNoSideScroll(bo);
    await bo.screenshot({ path: '/tmp/notifications-es-375.png' });
  });

  it('at desktop width the tabs sit side by side with their counts', async () => {
    await lena.setViewportSize({ width: 1280, height: 800 });
    await lena.goto('/reservations?tab=lending');
    await cardOf(lena).waitFor();
    await lena.evaluate(() => window.scrollTo(0, 0));
    await lena.screenshot({ path: '/tmp/my-reservations-lender-1280.png' });
    await bo.setViewportSize({ width: 1280, height: 800 });
    await bo.goto('/reservations');
    await cardOf(bo).waitFor();
    await bo.evaluate(() => window.scrollTo(0, 0));
    await bo.screenshot({ path: '/tmp/my-reservations-es-1280.png' });
  });
});
