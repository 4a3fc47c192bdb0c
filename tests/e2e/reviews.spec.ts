import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

/** Calls the real API as the signed-in page's person (same origin, their cookie). */
async function call(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const response = await page.request.fetch(path, {
    method,
    headers: { origin: b.baseURL },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

function tomorrow(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  return d.toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' });
}

describe('reviews journey', () => {
  it('two people finish a reservation and review each other, and the reviews appear on the profiles', async () => {
    const borrower = await b.newPage({ width: 375, height: 812 });
    const lender = await b.newPage();
    await signIn(borrower, 'diego.ramirez@stanford.edu');
    await signIn(lender, 'priya.patel@stanford.edu');

    // The reservation, as the two of them would run it from My Reservations: request, approve,
    // picked up, returned.
    const { items } = await call(borrower, 'GET', '/api/items?campus=all&searchQuery=Rice%20cooker');
    const item = items.find((i: { title: string }) => i.title === 'Rice cooker (6 cups)');
    const { reservation } = await call(borrower, 'POST', '/api/reservations', {
      itemId: item.id,
      startDate: tomorrow(),
      endDate: tomorrow(),
    });
    await call(lender, 'POST', `/api/reservations/${reservation.id}/approve`, {});
    await call(borrower, 'PUT', `/api/reservations/${reservation.id}`, { status: 'active' });
    await call(lender, 'PUT', `/api/reservations/${reservation.id}`, { status: 'completed' });

    // The borrower reviews from the completed card, by keyboard.
    await borrower.goto('/reservations');
    // This reservation's card: the demo history may hold earlier borrows between the same two people.
    const card = borrower.locator(`#reservation-${reservation.id}`);
    await card.getByText('Leave a review for Priya Patel and the item.', { exact: false }).waitFor();
    await expectAccessible(borrower);
    await card.getByRole('button', { name: 'Leave a review' }).click();
    const dialog = borrower.getByRole('dialog', { name: 'Review Priya Patel' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await dialog.getByText('Please choose a star rating').waitFor();
    await dialog.getByText('Comment is required').waitFor();
    await expectAccessible(borrower);
    await dialog.getByRole('radio', { name: /^1 star/ }).focus();
    for (let i = 0; i < 3; i++) await borrower.keyboard.press('ArrowRight');
    expect(await dialog.getByRole('radio', { name: /^4 stars/ }).isChecked()).toBe(true);
    await dialog.getByLabel('Comment').fill('Spotless rice cooker and an easy handover at Flo Mo.');
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await borrower.getByText('Review submitted', { exact: true }).waitFor();
    await card.getByText('You reviewed Priya Patel').waitFor();
    await card
      .getByText(/Your review shows once Priya Patel has written theirs, or on [A-Z][a-z]{2} \d{1,2}\./)
      .waitFor();
    await expectAccessible(borrower);

    // Hidden until the lender has written hers: her profile shows her earlier reviews (from the demo
    // history) and her badges, but not this one.
    await lender.goto('/profile');
    await lender.getByRole('heading', { name: 'Priya Patel', level: 1 }).waitFor();
    await lender.getByText('First Lend', { exact: true }).waitFor();
    await lender.getByText('Lent an item to a classmate for the first time.').waitFor();
    await lender.getByRole('tab', { name: 'Reviews' }).click();
    await lender.getByRole('article').first().waitFor();
    expect(await lender.getByText('Spotless rice cooker and an easy handover at Flo Mo.').count()).toBe(0);
    await expectAccessible(lender);

    // The lender follows the notification; the dialog opens on the right card.
    await lender.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await lender.getByRole('menu').getByRole('menuitem', { name: 'Leave a review' }).first().click();
    const lenderDialog = lender.getByRole('dialog', { name: 'Review Diego Ramirez' });
    await lenderDialog.waitFor();
    // Behind the modal dialog, the Lending tab is the one open.
    expect(
      await lender.getByRole('tab', { name: /Lending/, includeHidden: true }).getAttribute('aria-selected'),
    ).toBe('true');
    await expectAccessible(lender);
    // By mouse this time: a click on the fifth star.
    await lenderDialog.locator('label', { hasText: '5 stars' }).click();
    expect(await lenderDialog.getByRole('radio', { name: /^5 stars/ }).isChecked()).toBe(true);
    await lenderDialog.getByLabel('Comment').fill('Returned it clean and on time. Would lend again!');
    await lenderDialog.getByRole('button', { name: 'Submit Review' }).click();
    await lender.getByText('Thanks! Both reviews now show on your profiles.', { exact: true }).waitFor();
    await lender.getByText('Your review shows on Diego', { exact: false }).first().waitFor();

    // Both reviews show now: on each profile, with the average, and the borrower's on the item.
    await lender.goto('/profile');
    await lender.getByRole('tab', { name: 'Reviews' }).click();
    const received = lender
      .getByRole('article', { name: 'Review by Diego Ramirez' })
      .filter({ hasText: 'Spotless rice cooker' });
    await received.getByText('Spotless rice cooker and an easy handover at Flo Mo.').waitFor();
    await received.getByRole('img', { name: 'Rated 4 out of 5' }).waitFor();
    await received.getByText('Rice cooker (6 cups)').waitFor();
    await expectAccessible(lender);

    await borrower.goto('/profile');
    await borrower.getByRole('heading', { name: 'Diego Ramirez', level: 1 }).waitFor();
    await borrower.getByRole('tab', { name: 'Reviews' }).click();
    const given = borrower
      .getByRole('article', { name: 'Review by Priya Patel' })
      .filter({ hasText: 'Returned it clean and on time. Would lend again!' });
    await given.getByRole('img', { name: 'Rated 5 out of 5' }).waitFor();
    await expectAccessible(borrower);

    await borrower.goto(`/item/${item.id}`);
    await borrower
      .getByRole('region', { name: /Reviews/ })
      .getByText('Spotless rice cooker and an easy handover at Flo Mo.')
      .waitFor();
    await expectAccessible(borrower);
  });
});
