import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardExpiry } from '../helpers/cards.ts';
import { expectAccessible, journeySteps, setupBrowser, signIn } from './helpers.ts';

// A disputed return, as the three people see it. Jordan lends a camera of his
// own (made for this journey, so other journeys' borrows never meet it) to Maya; at the pickup both add
// photos of its condition (Maya on her phone, with a note), she presses Picked Up; she says it is back,
// he reports a problem and claims part of the deposit, she disputes it, and a moderator decides with
// both sides, the handover photos and their chat before them. The request and approval go through the
// API, as the Reserve dialog makes them.
// Screenshots of the card at 375 and 1280 px go to SCREENSHOT_DIR when it is set.

const b = setupBrowser();
const PHONE = { width: 375, height: 812 };
const TITLE = `Film camera ${Date.now().toString(36)}`;
const shots = process.env.SCREENSHOT_DIR;

function inDays(n: number): string {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return d.toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' });
}

async function call(page: Page, method: 'POST' | 'PUT', path: string, data: unknown = {}) {
  const response = await page.request.fetch(path, { method, headers: { origin: b.baseURL }, data });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

async function shoot(card: Locator, name: string) {
  if (shots) await card.screenshot({ path: `${shots}/${name}.png` });
}

describe('a deposit claim, disputed and decided', () => {
  journeySteps();
  let maya: Page;
  let jordan: Page;
  let moderator: Page;
  const card = (page: Page) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: TITLE }) });

  let scratchPhoto = '';
  let pickupPhoto = '';
  let reservationId = '';

  beforeAll(async () => {
    scratchPhoto = path.join(mkdtempSync(path.join(os.tmpdir(), 'campusloop-claim-')), 'scratch.jpg');
    writeFileSync(
      scratchPhoto,
      await sharp({ create: { width: 800, height: 600, channels: 3, background: '#7c2d12' } })
        .jpeg()
        .toBuffer(),
    );
    pickupPhoto = path.join(path.dirname(scratchPhoto), 'pickup.jpg');
    writeFileSync(
      pickupPhoto,
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#1e3a8a' } })
        .jpeg()
        .toBuffer(),
    );
    maya = await b.newPage(PHONE);
    jordan = await b.newPage();
    moderator = await b.newPage();
    await signIn(maya, 'maya.chen@stanford.edu');
    await signIn(jordan, 'jordan.lee@stanford.edu');
    await signIn(moderator, 'moderator@stanford.edu');
  });
  afterAll(async () => {
    for (const page of [maya, jordan, moderator]) await page?.context().close();
  });

  it('Maya borrows Jordan’s camera ($40 deposit); Jordan approves', async () => {
    const { item } = await call(jordan, 'POST', '/api/items', {
      title: TITLE,
      description: 'A 35 mm film camera with a 50 mm lens, for this journey.',
      category: 'electronics',
      condition: 'good',
      pickupMethod: 'meetup',
      depositAmount: '40.00',
      rentalPrice: '5.00',
      rentalPeriod: 'day',
      availableFrom: inDays(0),
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    const day = inDays(2);
    const { paymentIntentId } = await call(maya, 'POST', '/api/create-payment-intent', {
      itemId: item.id,
      startDate: day,
      endDate: day,
      depositAmount: '40.00',
      rentalAmount: '5.00',
    });
    await call(maya, 'POST', '/api/payments/test/confirm', {
      paymentIntentId,
      card: { number: '4242 4242 4242 4242', ...cardExpiry(12), cvc: '123' },
    });
    const { reservation } = await call(maya, 'POST', '/api/reservations', {
      itemId: item.id,
      startDate: day,
      endDate: day,
      stripePaymentIntentId: paymentIntentId,
    });
    await call(jordan, 'POST', `/api/reservations/${reservation.id}/approve`);
    reservationId = reservation.id;
    // What they said about the meetup, for the moderator later.
    const { conversation } = await call(maya, 'POST', `/api/reservations/${reservationId}/conversation`);
    await call(maya, 'POST', `/api/conversations/${conversation.id}/messages`, {
      content: 'The lens already has a small scratch, is that ok?',
    });
    await call(jordan, 'POST', `/api/conversations/${conversation.id}/messages`, {
      content: 'Yes, that one was there. Enjoy!',
    });
  });

  it('at the meetup Maya adds a photo and a note of its condition on her phone, then presses Picked Up', async () => {
    await maya.goto('/reservations');
    const mine = card(maya);
    const pickup = mine.getByRole('region', { name: 'Condition at pickup' });
    await pickup.getByText(/No photos yet/).waitFor();
    await pickup.getByRole('button', { name: 'Add pickup photos' }).click();
    const dialog = maya.getByRole('dialog', { name: 'Condition at pickup' });
    await dialog.getByText(/shown to Jordan Lee/).waitFor();
    await dialog.getByLabel('Add photos').setInputFiles([pickupPhoto]);
    await dialog.getByRole('button', { name: 'Remove photo 1' }).waitFor();
    await dialog.getByLabel('Note (optional)').fill('Small scratch on the lens, as we said in the chat.');
    await expectAccessible(maya);
    if (shots) await dialog.screenshot({ path: `${shots}/handover-dialog-375.png` });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await pickup.getByText('Small scratch on the lens, as we said in the chat.').waitFor();
    await pickup.getByRole('link', { name: 'Photo 1 of the pickup photos by You' }).waitFor();
    // The form never stood in the way of the pickup itself.
    await mine.getByRole('button', { name: 'Picked Up' }).click();
    await mine.getByText('Active', { exact: true }).waitFor();
    // Still open for a while after the pickup, for the photo taken on the way home.
    await pickup.getByRole('button', { name: 'Add more at pickup' }).waitFor();
    await expectAccessible(maya);
    await shoot(mine, 'handover-pickup-borrower-375');
  });

  it('Jordan sees her photo and note with their time, and adds his own', async () => {
    await jordan.goto('/reservations');
    await jordan.getByRole('tab', { name: /Lending/ }).click();
    const his = card(jordan);
    const pickup = his.getByRole('region', { name: 'Condition at pickup' });
    await pickup.getByText('Small scratch on the lens, as we said in the chat.').waitFor();
    await pickup.getByText(/Maya Chen · \w{3} \d{1,2} at \d{1,2}:\d{2} [AP]M/).waitFor();
    await pickup.getByRole('link', { name: 'Photo 1 of the pickup photos by Maya Chen' }).waitFor();
    await pickup.getByRole('button', { name: 'Add pickup photos' }).click();
    const dialog = jordan.getByRole('dialog', { name: 'Condition at pickup' });
    await dialog.getByLabel('Add photos').setInputFiles([pickupPhoto]);
    await dialog.getByRole('button', { name: 'Remove photo 1' }).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await pickup.getByRole('link', { name: 'Photo 1 of the pickup photos by You' }).waitFor();
    await expectAccessible(jordan);
    await shoot(his, 'handover-pickup-lender-1280');
  });

  it('Maya says it is back; her card says what happens to the deposit and by when', async () => {
    await maya.goto('/reservations');
    const mine = card(maya);
    await mine.getByRole('button', { name: 'Item Returned' }).click();
    await mine.getByText('Returned', { exact: true }).waitFor();
    await mine
      .getByText(/The \$40\.00 deposit is released when the lender confirms, or on its own on/)
      .waitFor();
    await mine.getByText(/Jordan Lee confirms the return by/).waitFor();
    await expectAccessible(maya);
    await shoot(mine, 'returned-borrower-375');
  });

  it('Jordan reports a problem: $15 of the deposit', async () => {
    await jordan.goto('/reservations');
    await jordan.getByRole('tab', { name: /Lending/ }).click();
    const his = card(jordan);
    await his
      .getByText(/Your turn: confirm it came back in good condition, or report a problem by/)
      .waitFor();
    await shoot(his, 'returned-lender-1280');
    await his.getByRole('button', { name: 'Report a problem' }).click();
    const dialog = jordan.getByRole('dialog', { name: 'Report a problem' });
    await dialog.getByLabel('What is wrong').fill('The lens has a new scratch across the front element.');
    // More than the deposit is refused, next to the field.
    await dialog.getByLabel(/Amount claimed/).fill('45');
    await dialog.getByRole('button', { name: 'Send claim' }).click();
    await dialog.getByText('The amount claimed must be between $0.01 and the $40.00 deposit.').waitFor();
    await expectAccessible(jordan);
    await dialog.getByLabel('Add photos').setInputFiles([scratchPhoto]);
    await dialog.getByRole('button', { name: 'Remove photo 1' }).waitFor();
    await dialog.getByLabel(/Amount claimed/).fill('15');
    await dialog.getByRole('button', { name: 'Send claim' }).click();
    await jordan.getByText('The borrower can accept it or dispute it.', { exact: true }).waitFor();
    await his.getByText('Claim open', { exact: true }).waitFor();
    await his.getByText('Claim: $15.00 of the $40.00 deposit.').waitFor();
    await his.getByRole('link', { name: 'Photo 1 of the problem' }).waitFor();
  });

  it('Maya disputes it with her side', async () => {
    await maya.reload();
    const mine = card(maya);
    await mine.getByText('Claim: $15.00 of the $40.00 deposit.').waitFor();
    await mine
      .getByText(/Your turn: accept Jordan Lee’s claim|Your turn: accept Jordan Lee's claim/)
      .waitFor();
    await shoot(mine, 'claimed-borrower-375');
    await mine.getByRole('button', { name: 'Dispute' }).click();
    const dialog = maya.getByRole('dialog', { name: 'Dispute the claim' });
    await dialog
      .getByLabel('Your side')
      .fill('That scratch was there when I picked it up; it is in my photos.');
    await dialog.getByRole('button', { name: 'Send dispute' }).click();
    await maya.getByText('A moderator will decide and tell you both.', { exact: true }).waitFor();
    await mine.getByText('In dispute', { exact: true }).waitFor();
    await expectAccessible(maya);
    await shoot(mine, 'disputed-borrower-375');
  });

  it('the moderator sees both sides and decides: Jordan keeps $10', async () => {
    await moderator.goto('/admin/claims');
    const dispute = moderator
      .getByRole('article')
      .filter({ has: moderator.getByRole('heading', { name: new RegExp(TITLE) }) });
    await dispute.getByText('The lens has a new scratch across the front element.').waitFor();
    await dispute.getByText('That scratch was there when I picked it up; it is in my photos.').waitFor();
    await dispute.getByRole('link', { name: 'Photo 1 of the problem' }).waitFor();
    // The handover: both people's pickup photos, Maya's note, and their chat about the scratch.
    await dispute.getByText('Small scratch on the lens, as we said in the chat.').waitFor();
    await dispute
      .getByRole('link', { name: 'Photo 1 of the pickup photos by Maya Chen (borrower)' })
      .waitFor();
    await dispute
      .getByRole('link', { name: 'Photo 1 of the pickup photos by Jordan Lee (lender)' })
      .waitFor();
    await dispute.getByText('Yes, that one was there. Enjoy!').waitFor();
    await dispute.getByText('The lens already has a small scratch, is that ok?').waitFor();
    await expectAccessible(moderator);
    await shoot(dispute, 'dispute-evidence-1280');
    await moderator.setViewportSize(PHONE);
    await shoot(dispute, 'dispute-evidence-375');
    // The queue with its photos and chat fits a phone: nothing wider than the screen.
    await moderator.waitForFunction((width) => document.documentElement.scrollWidth <= width, PHONE.width);
    await moderator.setViewportSize({ width: 1280, height: 900 });
    await dispute.getByLabel(/Lender keeps/).fill('10');
    await dispute.getByRole('button', { name: 'Decide' }).click();
    await moderator.getByText('Claim decided', { exact: true }).waitFor();
    await dispute.waitFor({ state: 'detached' });
  });

  it('both cards say how it was settled', async () => {
    await maya.reload();
    // My Reservations opens where something waits for the reader: Maya's borrow is settled, so her own
    // card is under Borrowing whichever tab opened.
    await maya.getByRole('tab', { name: /Borrowing/ }).click();
    const mine = card(maya);
    await mine.getByText('Completed', { exact: true }).waitFor();
    await mine.getByText(/the lender keeps \$10\.00;\s*\$30\.00 of the deposit is refunded/).waitFor();
    await shoot(mine, 'settled-borrower-375');
    await jordan.reload();
    await jordan.getByRole('tab', { name: /Lending/ }).click();
    await card(jordan)
      .getByText(/the lender keeps \$10\.00/)
      .waitFor();
    await shoot(card(jordan), 'settled-lender-1280');
  });
});
