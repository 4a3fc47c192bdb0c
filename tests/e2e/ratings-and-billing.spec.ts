import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };

async function call(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const response = await page.request.fetch(path, {
    method,
    headers: { origin: b.baseURL },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

function inDays(n: number): string {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return d.toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' });
}

// A borrower rates the lender and the item apart (decision 053); a lender still gives one rating.
describe('two ratings from the borrower, on a phone', () => {
  let borrower: Page;
  let lender: Page;
  let riceCooker: { id: string };
  let offset = 20;

  beforeAll(async () => {
    borrower = await b.newPage(PHONE);
    lender = await b.newPage(PHONE);
    await signIn(borrower, 'diego.ramirez@stanford.edu');
    await signIn(lender, 'priya.patel@stanford.edu');
    const { items } = await call(borrower, 'GET', '/api/items?campus=all&searchQuery=Rice%20cooker');
    riceCooker = items.find((i: { title: string }) => i.title === 'Rice cooker (6 cups)');
  });

  async function returnedBorrow(): Promise<string> {
    offset += 1;
    const { reservation } = await call(borrower, 'POST', '/api/reservations', {
      itemId: riceCooker.id,
      startDate: inDays(offset),
      endDate: inDays(offset),
    });
    await call(lender, 'POST', `/api/reservations/${reservation.id}/approve`, {});
    await call(borrower, 'PUT', `/api/reservations/${reservation.id}`, { status: 'active' });
    await call(lender, 'PUT', `/api/reservations/${reservation.id}`, { status: 'completed' });
    return reservation.id;
  }

  it('asks the borrower for the lender’s stars and the item’s, each labelled', async () => {
    const id = await returnedBorrow();
    await borrower.goto('/reservations');
    const card = borrower.locator(`#reservation-${id}`);
    await card.getByRole('button', { name: 'Leave a review' }).click();
    const dialog = borrower.getByRole('dialog', { name: 'Review Priya Patel' });
    const lenderStars = dialog.getByRole('group', { name: 'Priya Patel, the lender' });
    const itemStars = dialog.getByRole('group', { name: 'The item, Rice cooker (6 cups)' });
    await lenderStars.waitFor();
    await itemStars.waitFor();
    await lenderStars.locator('label', { hasText: '2 stars' }).click();
    await dialog.getByLabel('Comment').fill('Late to the handover, but the rice cooker was perfect.');
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await dialog.getByText('Please rate the item').waitFor();
    await expectAccessible(borrower);
    await itemStars.locator('label', { hasText: '5 stars' }).click();
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await card.getByText('You reviewed Priya Patel').waitFor();
    await card.getByText('and the item').waitFor();
    await card.getByRole('img', { name: 'Rated 5 out of 5' }).waitFor();
    const [mine] = (await call(borrower, 'GET', '/api/reviews/mine')).reviews.filter(
      (r: { reservationId: string }) => r.reservationId === id,
    );
    expect(mine).toMatchObject({ rating: 2, itemRating: 5 });
    await expectAccessible(borrower);
  });

  it('asks the lender for one rating, of the borrower', async () => {
    const id = await returnedBorrow();
    await lender.goto('/reservations');
    await lender.getByRole('tab', { name: /Lending/ }).click();
    const card = lender.locator(`#reservation-${id}`);
    await card.getByRole('button', { name: 'Leave a review' }).click();
    const dialog = lender.getByRole('dialog', { name: 'Review Diego Ramirez' });
    await dialog.getByRole('group', { name: 'Rating' }).waitFor();
    expect(await dialog.getByRole('radio').count()).toBe(5);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('labels both ratings in Spanish', async () => {
    const id = await returnedBorrow();
    await call(borrower, 'PUT', '/api/account/language', { locale: 'es' });
    try {
      await borrower.goto('/reservations');
      const card = borrower.locator(`#reservation-${id}`);
      await card.getByRole('button', { name: 'Dejar una reseña' }).click();
      const dialog = borrower.getByRole('dialog');
      await dialog.getByRole('group', { name: 'Priya Patel, quien presta' }).waitFor();
      await dialog.getByRole('group', { name: 'El artículo, Rice cooker (6 cups)' }).waitFor();
      await expectAccessible(borrower);
    } finally {
      await call(borrower, 'PUT', '/api/account/language', { locale: 'en' });
    }
  });
});

// Billing History reads by booking: the item and its dates head each group, each row says in plain
// words what happened, amounts stay on one line, and the provider's ids wait behind "Details".
describe('Billing History on a phone', () => {
  let student: Page;
  type Entry = { kind: string; reservationId: string | null; description: string };
  let refund: Entry;

  beforeAll(async () => {
    student = await b.newPage(PHONE);
    // The demo history gives some borrowers a deposit back: the first of them.
    const people = ['diego', 'maya.chen', 'jordan.lee', 'aisha.okafor', 'ethan.nguyen', 'hana.sato'];
    for (const person of [...people, 'marcus.johnson', 'noah.williams', 'sofia.martinez']) {
      await signIn(student, `${person.replace('diego', 'diego.ramirez')}@stanford.edu`);
      const { transactions } = await call(student, 'GET', '/api/billing-history');
      const found = (transactions as Entry[]).find((e) => e.kind === 'refund' && e.reservationId);
      if (found) {
        refund = found;
        return;
      }
      await call(student, 'POST', '/api/auth/logout');
    }
  });

  it('groups rows by booking, keeps amounts on one line and ids behind a details toggle', async () => {
    expect(refund, 'a demo borrower with a deposit back').toBeTruthy();
    const { reservations } = await call(student, 'GET', '/api/reservations');
    const booking = reservations.find((r: { id: string }) => r.id === refund.reservationId);

    await student.goto('/billing-history');
    const group = student.getByRole('region', { name: booking.item.title });
    await group.getByRole('heading', { level: 2, name: booking.item.title }).waitFor();
    const row = group.getByRole('listitem').filter({ hasText: refund.description }).first();
    await row.getByText('Back on your card', { exact: true }).waitFor();
    // No "Payment" label on a refund, and its id waits behind the toggle.
    expect(await row.getByText('Payment', { exact: true }).count()).toBe(0);
    expect(await row.getByText(/^Refund ID: /).isVisible()).toBe(false);

    // Every amount on the page fits on one line, and nothing is wider than the phone.
    const wrapped = await student.evaluate(() =>
      [...document.querySelectorAll('main p')]
        .filter((p) => /^[−+]?\$[\d,]+\.\d\d$/.test(p.textContent ?? ''))
        .filter(
          (p) => p.getBoundingClientRect().height > Number.parseFloat(getComputedStyle(p).lineHeight) * 1.5,
        )
        .map((p) => p.textContent),
    );
    expect(wrapped).toEqual([]);
    expect(await student.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The toggle, by keyboard.
    const toggle = row.locator('summary');
    expect(await toggle.textContent()).toBe(`Details for ${refund.description}`);
    await toggle.focus();
    await student.keyboard.press('Enter');
    await row.getByText(/^Refund ID: /).waitFor();
    await expectAccessible(student);
  });

  it('names the groups and the toggle in Spanish', async () => {
    await call(student, 'PUT', '/api/account/language', { locale: 'es' });
    try {
      await student.goto('/billing-history');
      await student.getByRole('heading', { level: 1, name: 'Historial de facturación' }).waitFor();
      await student
        .locator('summary', { hasText: /^Detalles de / })
        .first()
        .waitFor();
      await student
        .getByText(/^Del .+ al .+$/)
        .first()
        .waitFor();
      await expectAccessible(student);
    } finally {
      await call(student, 'PUT', '/api/account/language', { locale: 'en' });
    }
  });
});
