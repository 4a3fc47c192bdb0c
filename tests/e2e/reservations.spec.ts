import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { proportionBack } from '../../src/shared/booking/service-fee.ts';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { expectAccessible, journeySteps, pressItemReturned, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

async function openItem(page: Page, title: string) {
  await page.goto(`/browse?q=${encodeURIComponent(title)}`);
  await page
    .getByRole('link', { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
    .first()
    .click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

async function payWith(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill(typedExpiry(cardExpiry(12)));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

// Jordan (on a phone) borrows Maya's drill and pays by card. The steps build on each other, each its
// own test; once one fails the rest are skipped (journeySteps).
describe('a paid borrow, from the request to the return', () => {
  journeySteps();
  let borrower: Page;
  let lender: Page;
  /** The drill's card id on both people's pages (other journeys may have borrows of theirs too). */
  let drillCardId = '';

  beforeAll(async () => {
    borrower = await b.newPage({ width: 375, height: 812 });
    lender = await b.newPage();
    await signIn(borrower, 'jordan.lee@stanford.edu');
    await signIn(lender, 'maya.chen@stanford.edu');
  });

  it('the borrower sees the price and pays by card', async () => {
    await openItem(borrower, 'Cordless drill with bit set');
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    const dialog = borrower.getByRole('dialog');
    await dialog.getByText('Total').first().waitFor();
    // $35 of rental, its $3.50 service fee (10 %, the server's default rates) and the $25 deposit.
    await dialog.getByText('Service fee').first().waitFor();
    await dialog.getByText('$3.50').first().waitFor();
    await dialog.getByText('$63.50').first().waitFor();
    await expectAccessible(borrower);
    await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
    await dialog.getByLabel('Card number').waitFor();
    // What the card sees now, at approval, and if the answer is no.
    await dialog
      .getByText('We hold $63.50 on your card now; nothing is charged yet.', { exact: false })
      .waitFor();
    await dialog.getByRole('button', { name: 'Back to Details' }).waitFor();
    await expectAccessible(borrower);
    await payWith(borrower, '4242 4242 4242 4242');
    await borrower
      .getByText('Your reservation request has been sent to the item owner.', { exact: true })
      .waitFor();
  });

  it('the request reaches the lender live, who approves it from the notifications dropdown', async () => {
    // The lender's page has been open since before the request: it arrives without a reload, well
    // inside the 30 s poll.
    await lender.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await lender.getByRole('menu').getByText('New reservation request').first().waitFor({ timeout: 5_000 });
    await lender.getByRole('menu').getByRole('menuitem', { name: 'Approve' }).first().click();
    // What approval does to the money, not 'can now proceed with payment'.
    await lender
      .getByText(/Their card is charged \$63\.50 now/)
      .first()
      .waitFor();
    await lender.keyboard.press('Escape');
  });

  it('the borrower sees the pickup code and marks the item picked up', async () => {
    await borrower.goto('/reservations');
    await borrower.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
    // The drill's card: other journeys may have confirmed other borrows of Jordan's.
    const approved = borrower
      .getByRole('listitem')
      .filter({ has: borrower.getByRole('heading', { name: 'Cordless drill with bit set' }) })
      .filter({ hasText: 'Pickup Code:' })
      .first();
    await approved.getByText('Pickup Code:').waitFor();
    // The same card once picked up (it no longer shows a code).
    drillCardId = (await approved.getAttribute('id')) ?? '';
    const card = borrower.locator(`[id="${drillCardId}"]`);
    const code = (await card.locator('p.font-mono').first().textContent())?.replace(/\D/g, '');
    expect(code).toMatch(/^\d{6}$/);
    await expectAccessible(borrower);
    await card.getByRole('button', { name: 'Picked Up' }).click();
    await borrower
      .getByText('The reservation status has been updated successfully.', { exact: true })
      .waitFor();
    await card.getByRole('button', { name: 'Item Returned' }).waitFor();
  });

  it('the borrower says it is back; the lender confirms it came back in good condition', async () => {
    // "Item Returned" asks the lender; the deposit waits for their answer (or 48 hours).
    const mine = borrower.locator(`[id="${drillCardId}"]`);
    await pressItemReturned(borrower, mine);
    await mine.getByText('Returned', { exact: true }).waitFor();
    await mine.getByText(/is released when the lender confirms, or on its own on/).waitFor();
    await expectAccessible(borrower);

    await lender.goto('/reservations');
    await lender.getByRole('tab', { name: /Lending/ }).click();
    const theirs = lender.locator(`[id="${drillCardId}"]`);
    await theirs.getByRole('button', { name: 'Report a problem' }).waitFor();
    await expectAccessible(lender);
    await theirs.getByRole('button', { name: 'Returned in good condition' }).click();
    await lender
      .getByText('The reservation status has been updated successfully.', { exact: true })
      .waitFor();
    await theirs.getByText('Completed', { exact: true }).waitFor();
  });

  it('both billing histories show it: the payment, the deposit and unused rental back, and the earning', async () => {
    // Returned before its last day (decision 034): the rental of the unused days came back by the
    // drill's policy, and the lender earns the rest of the $35.00.
    const id = drillCardId.replace('reservation-', '');
    const mine = (await (await borrower.request.get('/api/reservations')).json()).reservations.find(
      (r: { id: string }) => r.id === id,
    );
    const rentalBack = Number(mine.earlyReturn?.rentalRefund ?? 0);
    expect(rentalBack).toBeGreaterThan(0);
    await borrower.goto('/billing-history');
    const rentalRefund = borrower
      .getByRole('listitem')
      .filter({ hasText: 'Rental refund for Cordless drill with bit set' })
      .first();
    // The service fee comes back in the proportion the rental does, the half cent to the borrower.
    const feeBack = proportionBack(350, Math.round(rentalBack * 100), 3500) / 100;
    await rentalRefund.getByText(`+$${(rentalBack + feeBack).toFixed(2)}`, { exact: true }).waitFor();
    await borrower.getByText('Payment for Cordless drill with bit set', { exact: false }).first().waitFor();
    await borrower
      .getByText('Deposit refund for Cordless drill with bit set', { exact: false })
      .first()
      .waitFor();
    await expectAccessible(borrower);
    // What each row did, with signs, and the refund's own id.
    const refund = borrower
      .getByRole('listitem')
      .filter({ hasText: 'Deposit refund for Cordless drill with bit set' })
      .first();
    await refund.getByText('Refunded', { exact: true }).waitFor();
    await refund.getByText(/^\+\$25\.00$/).waitFor();
    // The provider's ids wait behind the row's details toggle.
    await refund.locator('summary').click();
    await refund.getByText(/^Refund ID: /).waitFor();
    const payment = borrower
      .getByRole('listitem')
      .filter({ hasText: 'Payment for Cordless drill with bit set' })
      .first();
    await payment.getByText('Paid', { exact: true }).waitFor();
    await payment.getByText(/^−\$63\.50$/).waitFor();
    await payment.getByText('Includes a $3.50 service fee').waitFor();
    await lender.goto('/billing-history');
    const earning = lender
      .getByRole('listitem')
      .filter({ hasText: 'Earning: Cordless drill with bit set' })
      .first();
    await earning.getByText('Earned', { exact: true }).waitFor();
    await earning.getByText(`+$${(35 - rentalBack).toFixed(2)}`, { exact: true }).waitFor();
  });
});

describe('reservation journeys', () => {
  it('reserves a free item without payment', async () => {
    const borrower = await b.newPage();
    await signIn(borrower, 'diego.ramirez@stanford.edu');
    await openItem(borrower, 'Cast iron skillet (12 inch)');
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    const dialog = borrower.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Request to Borrow' }).click();
    await borrower
      .getByText('Your reservation request has been sent to the item owner.', { exact: true })
      .waitFor();
    await borrower.goto('/reservations');
    await borrower.getByText('Cast iron skillet (12 inch)').first().waitFor();
    await borrower.getByText('Pending', { exact: true }).first().waitFor();
  });

  it('says a declined card was refused, with the provider’s message under the card field', async () => {
    const borrower = await b.newPage();
    await signIn(borrower, 'priya.patel@stanford.edu');
    await openItem(borrower, 'Portable projector');
    const itemId = new URL(borrower.url()).pathname.split('/').pop();
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    await borrower.getByRole('dialog').getByRole('button', { name: 'Continue to Payment' }).click();
    await payWith(borrower, '4000 0000 0000 0002');
    await borrower.getByRole('dialog').getByText('Your card was declined. Try another card.').waitFor();
    // No request was left behind for the projector. Other journeys share the demo campus and may have
    // made Priya borrow something else, so her list is not necessarily empty.
    const mine = (await (await borrower.request.get('/api/reservations')).json()) as {
      reservations: { itemId: string }[];
    };
    expect(mine.reservations.filter((r) => r.itemId === itemId)).toEqual([]);
    await borrower.goto('/reservations');
    await borrower.getByRole('heading', { name: 'My Reservations' }).waitFor();
    await borrower
      .getByText('No borrowing reservations')
      .or(borrower.getByRole('article').first())
      .first()
      .waitFor();
    expect(await borrower.getByText('Portable projector').count()).toBe(0);
  });
});
