import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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

// Diego borrows Priya's rice cooker; each test starts from a borrow of its own that the two of them
// ran to the end through the API, as they would from My Reservations (request, approve, picked up,
// returned: the reservations journey shows those screens), and checks one part of reviewing it.
describe('reviews journey', () => {
  let borrower: Page;
  let lender: Page;
  let riceCooker: { id: string };

  beforeAll(async () => {
    borrower = await b.newPage({ width: 375, height: 812 });
    lender = await b.newPage();
    await signIn(borrower, 'diego.ramirez@stanford.edu');
    await signIn(lender, 'priya.patel@stanford.edu');
    const { items } = await call(borrower, 'GET', '/api/items?campus=all&searchQuery=Rice%20cooker');
    riceCooker = items.find((i: { title: string }) => i.title === 'Rice cooker (6 cups)');
  });

  /** A returned borrow of the rice cooker, ready to be reviewed by both. */
  async function returnedBorrow(): Promise<string> {
    const { reservation } = await call(borrower, 'POST', '/api/reservations', {
      itemId: riceCooker.id,
      startDate: tomorrow(),
      endDate: tomorrow(),
    });
    await call(lender, 'POST', `/api/reservations/${reservation.id}/approve`, {});
    await call(borrower, 'PUT', `/api/reservations/${reservation.id}`, { status: 'active' });
    await call(lender, 'PUT', `/api/reservations/${reservation.id}`, { status: 'completed' });
    return reservation.id;
  }

  const review = (page: Page, reservationId: string, rating: number, comment: string) =>
    call(page, 'POST', '/api/reviews', { reservationId, rating, comment });

  it('the borrower reviews from the returned borrow’s card, by keyboard', async () => {
    const reservationId = await returnedBorrow();
    await borrower.goto('/reservations');
    // This reservation's card: the demo history may hold earlier borrows between the same two people.
    const card = borrower.locator(`#reservation-${reservationId}`);
    await card.getByText('Leave a review for Priya Patel and the item.', { exact: false }).waitFor();
    await expectAccessible(borrower);
    await card.getByRole('button', { name: 'Leave a review' }).click();
    const dialog = borrower.getByRole('dialog', { name: 'Review Priya Patel' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await dialog.getByText('Please choose a star rating').waitFor();
    await dialog.getByText('Comment is required').waitFor();
    await expectAccessible(borrower);
    // Two ratings (decision 053): the lender's, then the item's.
    const lenderStars = dialog.getByRole('group', { name: 'Priya Patel, the lender' });
    await lenderStars.getByRole('radio', { name: /^1 star/ }).focus();
    for (let i = 0; i < 3; i++) await borrower.keyboard.press('ArrowRight');
    expect(await lenderStars.getByRole('radio', { name: /^4 stars/ }).isChecked()).toBe(true);
    const itemStars = dialog.getByRole('group', { name: 'The item, Rice cooker (6 cups)' });
    await itemStars.getByRole('radio', { name: /^1 star/ }).focus();
    for (let i = 0; i < 4; i++) await borrower.keyboard.press('ArrowRight');
    expect(await itemStars.getByRole('radio', { name: /^5 stars/ }).isChecked()).toBe(true);
    await dialog.getByLabel('Comment').fill('Spotless rice cooker and an easy handover at Flo Mo.');
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await borrower.getByText('Review submitted', { exact: true }).waitFor();
    await card.getByText('You reviewed Priya Patel').waitFor();
    await card
      .getByText(/Your review shows once Priya Patel has written theirs, or on [A-Z][a-z]{2} \d{1,2}\./)
      .waitFor();
    await expectAccessible(borrower);
  });

  it('a review stays off the lender’s profile until she has written hers', async () => {
    const reservationId = await returnedBorrow();
    await review(borrower, reservationId, 4, 'Hidden for now: the rice cooker was spotless.');

    // Her profile shows her earlier reviews (from the demo history) and her badges, but not this one.
    await lender.goto('/profile');
    await lender.getByRole('heading', { name: 'Priya Patel', level: 1 }).waitFor();
    await lender.getByText('First Lend', { exact: true }).waitFor();
    await lender.getByText('Lent an item to a classmate for the first time.').waitFor();
    await lender.getByRole('tab', { name: 'Reviews' }).click();
    await lender.getByRole('article').first().waitFor();
    expect(await lender.getByText('Hidden for now: the rice cooker was spotless.').count()).toBe(0);
    await expectAccessible(lender);
  });

  it('the lender follows the notification and reviews by mouse, which reveals both', async () => {
    const reservationId = await returnedBorrow();
    await review(borrower, reservationId, 4, 'Worked perfectly, thanks Priya.');

    // The dialog opens on the right card, from the newest 'Leave a review' notification.
    await lender.goto('/');
    await lender.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await lender.getByRole('menu').getByRole('menuitem', { name: 'Leave a review' }).first().click();
    const dialog = lender.getByRole('dialog', { name: 'Review Diego Ramirez' });
    await dialog.waitFor();
    expect(new URL(lender.url()).searchParams.get('review')).toBe(reservationId);
    // Behind the modal dialog, the Lending tab is the one open.
    expect(
      await lender.getByRole('tab', { name: /Lending/, includeHidden: true }).getAttribute('aria-selected'),
    ).toBe('true');
    await expectAccessible(lender);
    await dialog.locator('label', { hasText: '5 stars' }).click();
    expect(await dialog.getByRole('radio', { name: /^5 stars/ }).isChecked()).toBe(true);
    await dialog.getByLabel('Comment').fill('Returned it clean and on time. Would lend again!');
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await lender.getByText('Thanks! Both reviews now show on your profiles.', { exact: true }).waitFor();
    await lender.getByText('Your review shows on Diego', { exact: false }).first().waitFor();
  });

  it('once both have written, the reviews show on both profiles and the item page', async () => {
    const reservationId = await returnedBorrow();
    await review(borrower, reservationId, 4, 'Cooked perfect rice all week, easy handover.');
    await review(lender, reservationId, 5, 'Diego kept it spotless. Welcome back any time!');

    await lender.goto('/profile');
    await lender.getByRole('tab', { name: 'Reviews' }).click();
    const received = lender
      .getByRole('article', { name: 'Review by Diego Ramirez' })
      .filter({ hasText: 'Cooked perfect rice all week' });
    await received.getByRole('img', { name: 'Rated 4 out of 5' }).waitFor();
    await received.getByText('Rice cooker (6 cups)').waitFor();
    await expectAccessible(lender);

    await borrower.goto('/profile');
    await borrower.getByRole('heading', { name: 'Diego Ramirez', level: 1 }).waitFor();
    await borrower.getByRole('tab', { name: 'Reviews' }).click();
    const given = borrower
      .getByRole('article', { name: 'Review by Priya Patel' })
      .filter({ hasText: 'Diego kept it spotless. Welcome back any time!' });
    await given.getByRole('img', { name: 'Rated 5 out of 5' }).waitFor();
    await expectAccessible(borrower);

    await borrower.goto(`/item/${riceCooker.id}`);
    await borrower
      .getByRole('region', { name: /Reviews/ })
      .getByText('Cooked perfect rice all week, easy handover.')
      .waitFor();
    await expectAccessible(borrower);
  });
});
