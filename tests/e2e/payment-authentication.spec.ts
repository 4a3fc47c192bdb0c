import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { callApi, campusDay, expectAccessible, newStudent, setupBrowser, signIn } from './helpers.ts';

// A card that asks for 3-D Secure sends the borrower to the bank's page (the built-in test
// provider's test bank), and the bank's return to /reservations finishes the request the Reserve
// dialog could not; and moderators have a page for payments that need a person.

const b = setupBrowser();
const expiry = typedExpiry(cardExpiry(12));

async function payWith3DS(page: Page, title: string) {
  await page.goto(`/browse?q=${encodeURIComponent(title)}`);
  await page
    .getByRole('link', { name: new RegExp(title) })
    .first()
    .click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Reserve Item' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
  // Someone with saved cards (another journey may have saved Sam's) is offered them first.
  const newCard = dialog.getByRole('radio', { name: 'Use a new card' });
  const cardNumber = dialog.getByLabel('Card number');
  await newCard.or(cardNumber).first().waitFor();
  if (await newCard.isVisible()) await newCard.check();
  await cardNumber.fill('4000 0027 6000 3184');
  await dialog.getByLabel('Expiry (MM / YY)').fill(expiry);
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByRole('heading', { name: 'Confirm your payment', level: 1 }).waitFor();
}

describe('3-D Secure', () => {
  it('sends the borrower to the bank and back to My Reservations, where the request is made', async () => {
    const borrower = await b.newPage({ width: 375, height: 812 });
    await signIn(borrower, 'maya.chen@stanford.edu');
    await payWith3DS(borrower, 'Sewing machine');
    await expectAccessible(borrower);
    await borrower.getByRole('button', { name: 'Complete authentication' }).click();
    await borrower.waitForURL((url) => url.pathname === '/reservations');
    await borrower
      .getByText('Your reservation request has been sent to the item owner.', { exact: true })
      .waitFor();
    // The visible card: Maya's other reservations (as lender, in the other tab) may name it too.
    await borrower.locator('text=Sewing machine >> visible=true').first().waitFor();
    await borrower.getByText('Pending', { exact: true }).first().waitFor();
    // The payment's id left the address: a reload does not ask again.
    if (new URL(borrower.url()).search) throw new Error(`the address still has ${borrower.url()}`);
    await expectAccessible(borrower);
  });

  it('makes no request when the cardholder fails the bank’s check', async () => {
    const borrower = await b.newPage();
    await signIn(borrower, 'sam.rivera@berkeley.edu');
    await payWith3DS(borrower, 'Nintendo Switch with two controllers');
    await borrower.getByRole('button', { name: 'Fail authentication' }).click();
    await borrower.waitForURL((url) => url.pathname === '/reservations');
    await borrower
      .getByText('Your bank did not confirm the payment, so no request was sent. Please try again.', {
        exact: true,
      })
      .waitFor();
    // Sam has other borrowings (demo data), but none for the Switch: the server made no request.
    const titles = await borrower.evaluate(async () => {
      const answer = await fetch('/api/reservations');
      const { reservations } = (await answer.json()) as { reservations: { item: { title: string } }[] };
      return reservations.map((reservation) => reservation.item.title);
    });
    if (titles.includes('Nintendo Switch with two controllers')) {
      throw new Error('a request was made although the bank refused');
    }
  });
});

describe('moderators’ payments', () => {
  it('shows the payments that need a person, or that none do', async () => {
    const moderator = await b.newPage({ width: 375, height: 812 });
    await signIn(moderator, 'moderator@stanford.edu');
    await moderator.goto('/admin');
    await moderator
      .getByRole('navigation', { name: 'Moderation' })
      .getByRole('link', { name: /Payments/ })
      .click();
    await moderator.waitForURL((url) => url.pathname === '/admin/payments');
    await moderator.getByRole('heading', { name: /Provider calls that need a person/ }).waitFor();
    await moderator.getByText('Every charge, release and refund has gone through.').waitFor();
    await moderator.getByText("Every payment's billing rows match the provider.").waitFor();
    await expectAccessible(moderator);

    const student = await b.newPage();
    await signIn(student, 'jordan.lee@stanford.edu');
    await student.goto('/admin/payments');
    await student.getByRole('heading', { name: 'Moderators only' }).waitFor();
  });
});

// The newer sections of /admin/payments with data of their own: a borrower's card disputes the charge
// when the lender approves (the test provider's dispute card), which gives the page a card dispute and the
// lender a line in this year's totals; the journal's check has its section, with a finding or its
// all-clear. A moderator reaches each section by keyboard.
describe('moderators’ payments: disputes, the journal and lenders’ totals', () => {
  const tag = Date.now().toString(36);
  const title = `Projector ${tag}`;
  let lenderName: string;

  beforeAll(async () => {
    const [lender, borrower] = await Promise.all([
      newStudent(b, { name: 'Dara', surname: 'Disputed', tag }),
      newStudent(b, { name: 'Eli', surname: 'Disputes', tag }),
    ]);
    lenderName = 'Dara Disputed';
    const listed = await callApi(lender, 'POST', '/api/items', {
      title,
      description: 'A small portable projector with an HDMI cable and a tripod mount.',
      category: 'electronics',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'White Plaza',
      rentalPrice: '4.00',
      rentalPeriod: 'day',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    const dates = { startDate: campusDay(1), endDate: campusDay(3) };
    const intent = await callApi(borrower, 'POST', '/api/create-payment-intent', {
      itemId: listed.item.id,
      ...dates,
      depositAmount: '0',
      rentalAmount: '8.00',
    });
    const { expMonth, expYear } = cardExpiry(12);
    // The test provider's card whose charge is disputed once captured.
    await callApi(borrower, 'POST', '/api/payments/test/confirm', {
      paymentIntentId: intent.paymentIntentId,
      card: { number: '4000 0000 0000 0259', expMonth, expYear, cvc: '123' },
    });
    const requested = await callApi(borrower, 'POST', '/api/reservations', {
      itemId: listed.item.id,
      ...dates,
      stripePaymentIntentId: intent.paymentIntentId,
    });
    await callApi(lender, 'POST', `/api/reservations/${requested.reservation.id}/approve`, {});
  });

  it('shows a card dispute, the journal’s section and the lender’s yearly total, each reachable by keyboard', async () => {
    const moderator = await b.newPage({ width: 375, height: 812 });
    await signIn(moderator, 'moderator@stanford.edu');
    // The capture runs in the worker after the approval, and the dispute arrives after it: read again
    // until the page has it.
    const dispute = moderator
      .getByRole('region', { name: /^Card disputes/ })
      .getByRole('listitem')
      .filter({ hasText: title });
    for (let attempt = 0; ; attempt += 1) {
      await moderator.goto('/admin/payments');
      await moderator.getByRole('heading', { name: /^Card disputes \(\d+\)/ }).waitFor();
      try {
        await dispute.first().waitFor({ timeout: 3000 });
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
      }
    }
    await dispute.getByRole('heading', { name: /^Dispute of \$/ }).waitFor();

    const journal = moderator.getByRole('region', { name: /^Bookings whose books do not add up/ });
    await journal
      .getByRole('listitem')
      .first()
      .or(journal.getByText("Every booking's books add up."))
      .first()
      .waitFor();

    const totals = moderator.getByRole('region', { name: "Lenders' yearly totals for tax reporting" });
    const lenderRow = totals.getByRole('listitem').filter({ hasText: lenderName });
    await lenderRow.waitFor();
    await lenderRow.getByText(/\$[\d.,]+ in \d+ payments/).waitFor();

    // By keyboard: Tab reaches the dispute's buttons and the year of the totals.
    const reached = new Set<string>();
    for (let presses = 0; presses < 120 && reached.size < 2; presses += 1) {
      await moderator.keyboard.press('Tab');
      const where = await moderator.evaluate(() => {
        const active = document.activeElement;
        return active?.closest('section[aria-labelledby]')?.getAttribute('aria-labelledby') ?? '';
      });
      if (where === 'disputes-heading' || where === 'totals-heading') reached.add(where);
    }
    expect([...reached].sort()).toEqual(['disputes-heading', 'totals-heading']);
    await expectAccessible(moderator);
    await moderator.screenshot({ path: '/tmp/admin-payments-375.png', fullPage: true });
    await moderator.setViewportSize({ width: 1280, height: 800 });
    await moderator.screenshot({ path: '/tmp/admin-payments-1280.png', fullPage: true });
  });
});
