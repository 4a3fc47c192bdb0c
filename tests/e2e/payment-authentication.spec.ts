import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

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
