import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDayLabel } from '../../src/shared/format.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { callApi, campusDay, expectAccessible, journeySteps, newStudent, setupBrowser } from './helpers.ts';

// Decision 034: Ines has Theo's tent from today to day 4 ($5 a day, flexible) and brings
// it back today. On her phone "Item Returned" first tells her the early return gives back $15.00 (3
// unused days); she returns it, and her card and Theo's say it was returned early and what was refunded.
// Then Uma books days 1 to 3 at once. Three students of its own, registered here, and an item of its
// own: other journeys share the server.

const b = setupBrowser();
const tag = Date.now().toString(36);
const day = campusDay;
const student = (name: string, viewport?: { width: number; height: number }) =>
  newStudent(b, { name, surname: 'Early', tag, viewport });

/** The Reserve dialog's calls for $5 a day: the authorisation, the test card, the request. */
async function book(page: Page, itemId: string, from: number, to: number) {
  const rental = `${5 * (to - from)}.00`;
  const intent = await callApi(page, 'POST', '/api/create-payment-intent', {
    itemId,
    startDate: day(from),
    endDate: day(to),
    depositAmount: '10.00',
    rentalAmount: rental,
  });
  const { expMonth, expYear } = cardExpiry(12);
  await callApi(page, 'POST', '/api/payments/test/confirm', {
    paymentIntentId: intent.paymentIntentId,
    card: { number: '4242 4242 4242 4242', expMonth, expYear, cvc: '123' },
  });
  return callApi(page, 'POST', '/api/reservations', {
    itemId,
    startDate: day(from),
    endDate: day(to),
    stripePaymentIntentId: intent.paymentIntentId,
  });
}

describe('early return journey', () => {
  journeySteps();
  let theo: Page;
  let ines: Page;
  let itemId: string;
  const title = `Two-person tent ${tag}`;

  beforeAll(async () => {
    [theo, ines] = await Promise.all([student('Theo'), student('Ines', { width: 375, height: 812 })]);
    const listed = await callApi(theo, 'POST', '/api/items', {
      title,
      description: 'A light two-person tent with poles, pegs and a rain fly.',
      category: 'other',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'White Plaza',
      rentalPrice: '5.00',
      rentalPeriod: 'day',
      depositAmount: '10.00',
      cancellationPolicy: 'flexible',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    itemId = listed.item.id;
    const { reservation } = await book(ines, itemId, 0, 4);
    await callApi(theo, 'POST', `/api/reservations/${reservation.id}/approve`, {});
    await callApi(ines, 'PUT', `/api/reservations/${reservation.id}`, { status: 'active' });
  });

  const cardOf = (page: Page) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

  it('Ines is told what returning early refunds, returns it, and her card says what happened', async () => {
    await ines.goto('/reservations');
    const card = cardOf(ines);
    await card.getByRole('button', { name: 'Item Returned' }).click();
    const dialog = ines.getByRole('alertdialog', { name: 'Return it early?' });
    await dialog
      .getByText(
        `Your booking ends today, ${formatDayLabel(day(0))}, instead of ${formatDayLabel(day(4))}, and the days after it are freed for others. By the item's flexible policy, $15.00 of the rental (100% of the 3 unused days) is refunded to your card.`,
      )
      .waitFor();
    await expectAccessible(ines);
    await ines.screenshot({ path: '/tmp/early-return-dialog-375.png' });
    await dialog.getByRole('button', { name: 'Return Early' }).click();
    await card.getByText('Returned', { exact: true }).waitFor();
    await card.getByText(`Returned early on ${formatDayLabel(day(0))}`).waitFor();
    await card.getByText(/\$15\.00 of the rental refunded to you, by the flexible policy/).waitFor();
    await card.getByText(`${formatDayLabel(day(0))} - ${formatDayLabel(day(0))}`).waitFor();
    await expectAccessible(ines);
    await ines.reload();
    await cardOf(ines)
      .getByText(/Returned early on/)
      .scrollIntoViewIfNeeded();
    await ines.screenshot({ path: '/tmp/early-return-card-375.png' });
    await ines.setViewportSize({ width: 1280, height: 900 });
    await ines.screenshot({ path: '/tmp/early-return-card-1280.png' });
  });

  it('Theo’s card says it too, and the freed days can be booked by Uma at once', async () => {
    await theo.setViewportSize({ width: 1280, height: 900 });
    await theo.goto('/reservations');
    await theo.getByRole('tab', { name: /Lending/ }).click();
    const card = cardOf(theo);
    await card.getByText(/\$15\.00 of the rental refunded to the borrower/).waitFor();
    await card.getByRole('button', { name: 'Returned in good condition' }).waitFor();
    await expectAccessible(theo);
    await theo.screenshot({ path: '/tmp/early-return-lender-1280.png' });

    const uma = await student('Uma');
    const { reservation } = await book(uma, itemId, 1, 3);
    expect(reservation.status).toBe('pending');
    await uma.goto('/reservations');
    await cardOf(uma)
      .getByText(`${formatDayLabel(day(1))} - ${formatDayLabel(day(3))}`)
      .waitFor();
  });
});
