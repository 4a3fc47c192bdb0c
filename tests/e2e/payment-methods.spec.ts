import { describe, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

describe('saved payment methods', () => {
  it('adds two cards through the card form, makes one the default, and deletes one', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await signIn(page, 'sam.rivera@berkeley.edu');
    await page.goto('/payment-methods');
    await page.getByText('No payment methods').waitFor();
    await expectAccessible(page);

    for (const [number, last4] of [
      ['4242 4242 4242 4242', '4242'],
      ['5555 5555 5555 4444', '4444'],
    ] as const) {
      await page
        .getByRole('button', { name: /Add Payment Method|Add New/ })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Card number').fill(number);
      await dialog.getByLabel('Expiry (MM / YY)').fill(typedExpiry(cardExpiry(11)));
      await dialog.getByLabel('CVC').fill('321');
      await dialog.getByRole('button', { name: 'Save Card' }).click();
      await page.getByText(`•••• ${last4}`).waitFor();
    }
    await page.getByText('Default', { exact: true }).first().waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Set as Default' }).click();
    await page.getByText('This payment method is now your default.', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Delete card ending in 4242' }).click();
    await page
      .getByRole('alertdialog')
      .getByText('Are you sure you want to delete this payment method?')
      .waitFor();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /Delete/ })
      .click();
    await page.getByText('The payment method has been removed from your account.', { exact: true }).waitFor();
    await page.getByText('•••• 4242').waitFor({ state: 'detached' });
  });
});
