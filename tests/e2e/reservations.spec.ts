import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

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
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 30');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

describe('reservation journeys', () => {
  it('borrower pays by card, lender approves from the dropdown, pickup, return, and both billing histories', async () => {
    const borrower = await b.newPage({ width: 375, height: 812 });
    const lender = await b.newPage();
    await signIn(borrower, 'jordan.lee@stanford.edu');
    await signIn(lender, 'maya.chen@stanford.edu');

    await openItem(borrower, 'Cordless drill with bit set');
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    const dialog = borrower.getByRole('dialog');
    await dialog.getByText('Total').first().waitFor();
    await dialog.getByText('$60.00').first().waitFor();
    await expectAccessible(borrower);
    await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
    await dialog.getByLabel('Card number').waitFor();
    await dialog.getByRole('button', { name: 'Back to Details' }).waitFor();
    await expectAccessible(borrower);
    await payWith(borrower, '4242 4242 4242 4242');
    await borrower
      .getByText('Your reservation request has been sent to the item owner.', { exact: true })
      .waitFor();

    // The request reaches the lender's open page live (no reload, well inside the 30 s poll), and
    // they approve it from the header's notifications dropdown.
    await lender.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await lender.getByRole('menu').getByText('New reservation request').first().waitFor({ timeout: 5_000 });
    await lender.getByRole('menu').getByRole('menuitem', { name: 'Approve' }).first().click();
    await lender
      .getByText('The borrower has been notified and can now proceed with payment.', { exact: true })
      .waitFor();
    await lender.keyboard.press('Escape');

    // The borrower sees Approved and the pickup code, and picks the item up.
    await borrower.goto('/reservations');
    await borrower.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
    await borrower.getByText('Pickup Code:').waitFor();
    const code = (await borrower.locator('p.font-mono').first().textContent())?.replace(/\D/g, '');
    expect(code).toMatch(/^\d{6}$/);
    await expectAccessible(borrower);
    await borrower.getByRole('button', { name: 'Picked Up' }).click();
    await borrower
      .getByText('The reservation status has been updated successfully.', { exact: true })
      .waitFor();
    await borrower.getByRole('button', { name: 'Return Item' }).waitFor();

    // The lender marks it returned; the deposit goes back.
    await lender.goto('/reservations');
    await lender.getByRole('tab', { name: /Lending/ }).click();
    await lender.getByRole('button', { name: 'Item Returned' }).click();
    await lender
      .getByText('The reservation status has been updated successfully.', { exact: true })
      .waitFor();
    await expectAccessible(lender);

    await borrower.goto('/billing-history');
    await borrower.getByText('Payment for Cordless drill with bit set', { exact: false }).first().waitFor();
    await borrower
      .getByText('Deposit refund for Cordless drill with bit set', { exact: false })
      .first()
      .waitFor();
    await expectAccessible(borrower);
    await lender.goto('/billing-history');
    await lender.getByText('Earning: Cordless drill with bit set', { exact: false }).first().waitFor();
  });

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

  it('shows Payment Failed with the provider’s message for a declined card', async () => {
    const borrower = await b.newPage();
    await signIn(borrower, 'priya.patel@stanford.edu');
    await openItem(borrower, 'Portable projector');
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    await borrower.getByRole('dialog').getByRole('button', { name: 'Continue to Payment' }).click();
    await payWith(borrower, '4000 0000 0000 0002');
    await borrower.getByText('Payment Failed', { exact: true }).waitFor();
    await borrower.getByText('Your card was declined.', { exact: true }).first().waitFor();
    await borrower.goto('/reservations');
    await borrower.getByText('No borrowing reservations').waitFor();
  });
});
