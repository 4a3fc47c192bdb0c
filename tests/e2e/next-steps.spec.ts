import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { expectAccessible, journeySteps, setupBrowser, signIn } from './helpers.ts';

// 'What happens next' and 'Say what the money does': Alex saves a card, pays for Sam's item
// with it without typing it (pressing Pay twice makes one request), is told who decides, by when,
// what is held and where the pickup code will appear; the item page and both reservation cards say
// what comes next and offer a message; Sam's approval says what is charged; Billing History says Paid.

const b = setupBrowser();

interface ListedItem {
  id: string;
  title: string;
  rentalPrice: string | null;
  depositAmount: string | null;
  isAvailable: boolean;
  user: { username: string; fullName: string };
}

describe('after paying, what happens next', () => {
  journeySteps();
  let borrower: Page;
  let lender: Page;
  let item: ListedItem;

  beforeAll(async () => {
    borrower = await b.newPage({ width: 375, height: 812 });
    lender = await b.newPage({ width: 1280, height: 900 });
    await signIn(borrower, 'alex.kim@berkeley.edu');
    await signIn(lender, 'sam.rivera@berkeley.edu');
    // A paid listing of Sam's with a deposit, its own: other journeys borrow Sam's demo items as Alex,
    // and an item Alex already asked for offers 'Reserve other dates'.
    const listed = await lender.request.post('/api/items', {
      headers: { origin: b.baseURL },
      data: {
        title: `Camping stove ${Date.now().toString(36)}`,
        description: 'Two-burner camping stove with a carry case; gas canister not included.',
        category: 'other',
        condition: 'good',
        rentalPrice: '4.00',
        rentalPeriod: 'day',
        depositAmount: '25.00',
        pickupMethod: 'meetup',
        pickupLocation: 'Sproul Plaza',
        availableFrom: '2026-01-01',
        availableDays: [0, 1, 2, 3, 4, 5, 6],
        images: [],
      },
    });
    expect(listed.status(), await listed.text()).toBe(201);
    item = (await listed.json()).item as ListedItem;
  });

  it('the borrower saves a card on Payment Methods', async () => {
    await borrower.goto('/payment-methods');
    await borrower.getByRole('heading', { name: 'Payment Methods', level: 1 }).waitFor();
    await borrower
      .getByRole('button', { name: /Add Payment Method|Add New/ })
      .first()
      .click();
    const dialog = borrower.getByRole('dialog');
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiry (MM / YY)').fill(typedExpiry(cardExpiry(11)));
    await dialog.getByLabel('CVC').fill('321');
    await dialog.getByRole('button', { name: 'Save Card' }).click();
    await borrower.getByText('•••• 4242').first().waitFor();
  });

  it('checkout offers the saved card and says what is held; pressing Pay twice sends one request', async () => {
    await borrower.goto(`/item/${item.id}`);
    await borrower.getByRole('heading', { name: item.title, level: 1 }).waitFor();
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    const dialog = borrower.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
    await dialog.getByText(/We hold \$[\d.,]+ on your card now; nothing is charged yet\./).waitFor();
    await dialog
      .getByText(`If ${item.user.fullName} approves, your card is charged`, { exact: false })
      .waitFor();
    // By when the lender answers, or the hold goes (decision 057).
    await dialog
      .getByText(
        new RegExp(
          `If ${item.user.fullName} has not answered by \\w{3}, \\w{3} \\d+ at .+ the hold on your card is released\\. A card is never held for a request longer than 6 days\\.`,
        ),
      )
      .waitFor();
    const saved = dialog.getByRole('radio', { name: /VISA •••• 4242/ });
    await saved.waitFor();
    expect(await saved.isChecked()).toBe(true);
    // No card form to fill in.
    expect(await dialog.getByLabel('Card number').count()).toBe(0);
    await expectAccessible(borrower);

    await dialog.getByRole('button', { name: /^Pay \$/ }).dblclick();
    await dialog.getByRole('heading', { name: `Request sent to ${item.user.fullName}` }).waitFor();
    await dialog.getByText(`${item.user.fullName} decides`).waitFor();
    await dialog
      .getByText(new RegExp(`${item.user.fullName} approves or declines by \\w{3}, \\w{3} \\d+ at`))
      .waitFor();
    await dialog.getByText(/on hold$/).waitFor();
    await dialog.getByText(/your 6-digit pickup code appears on this request in My Reservations/).waitFor();
    await expectAccessible(borrower);

    const mine = (await (await borrower.request.get('/api/reservations')).json()).reservations.filter(
      (r: { itemId: string; status: string }) => r.itemId === item.id && r.status === 'pending',
    );
    expect(mine).toHaveLength(1);
    const held = (await (await borrower.request.get('/api/billing-history')).json()).transactions.filter(
      (t: { reservationId: string }) => t.reservationId === mine[0].id,
    );
    expect(held.map((t: { kind: string; status: string }) => `${t.kind}:${t.status}`)).toEqual([
      'payment:pending',
    ]);
  });

  it('My Reservations says who acts next and by when, and offers a message', async () => {
    await borrower.getByRole('dialog').getByRole('link', { name: 'Go to My Reservations' }).click();
    await borrower.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
    const card = borrower.getByRole('article', { name: item.title }).locator('xpath=..');
    await card
      .getByText(new RegExp(`Waiting for ${item.user.fullName} to approve or decline by \\w{3}, \\w{3} \\d+`))
      .waitFor();
    await expectAccessible(borrower);
    await card.getByRole('button', { name: `Message ${item.user.fullName}` }).click();
    await borrower.waitForURL((url) => url.pathname === '/chat' && url.searchParams.has('conversation'));
    // The open conversation names the item (the header's chat dropdown, closed, names it too).
    await borrower.getByText(item.title).locator('visible=true').first().waitFor();
  });

  it('the item page shows the request instead of a fresh Reserve button', async () => {
    await borrower.goto(`/item/${item.id}`);
    await borrower.getByText(/^Requested \w{3} \d+(–\d+| – \w{3} \d+)? · Pending$/).waitFor();
    await borrower.getByRole('button', { name: 'Reserve other dates' }).waitFor();
    expect(await borrower.getByRole('button', { name: 'Reserve Item' }).count()).toBe(0);
    await expectAccessible(borrower);
  });

  it('the lender’s card says it is their turn; approving says what is charged now', async () => {
    await lender.goto('/reservations');
    await lender.getByRole('tab', { name: /Lending/ }).click();
    const card = lender.getByRole('article', { name: item.title }).first().locator('xpath=..');
    await card.getByText(/Your turn: approve or decline by \w{3}, \w{3} \d+/).waitFor();
    await card.getByRole('button', { name: 'Message Alex Kim' }).waitFor();
    await expectAccessible(lender);
    await card.getByRole('button', { name: 'Approve' }).click();
    await lender
      .getByText(/Alex Kim has been notified\. Their card is charged \$[\d.,]+ now \(/)
      .first()
      .waitFor();
    await lender
      .getByText(/The deposit goes back to Alex Kim when the item is returned\./)
      .first()
      .waitFor();
    await card.getByText(/Your turn: hand it over to Alex Kim on/).waitFor();
  });

  it('the borrower’s Billing History says Paid, with a minus, once the card is charged', async () => {
    await borrower.goto('/billing-history');
    const row = borrower.getByRole('listitem').filter({ hasText: `Payment for ${item.title}` });
    // The capture runs in the background: the row turns from Held to Paid.
    await row.getByText('Paid', { exact: true }).waitFor({ timeout: 30_000 });
    await row.getByText(/^−\$[\d.,]+$/).waitFor();
    await row.getByText('Charged to your card').waitFor();
    await expectAccessible(borrower);
  });
});
