import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { addDays } from '../../src/shared/booking/availability.ts';
import { formatDayLabel } from '../../src/shared/format.ts';
import { cardExpiry } from '../helpers/cards.ts';
import {
  callApi,
  campusDay,
  expectAccessible,
  journeySteps,
  newStudent,
  paidRequestThroughApi,
  setupBrowser,
  signIn,
} from './helpers.ts';

// Bo has Lena's projector from day 1 to day 3 and needs it two more days. On his phone he
// asks for more days from the booking's card, the card holds $8.00 of extra rental and its $1.00 service
// fee (the minimum), and his card says
// whom it waits for; Lena approves on hers and the booking now ends on day 5. Then a card that asks for
// 3-D Secure: back from the bank, the request is sent. Two students of its own,
// registered here, and an item of its own: other journeys share the server.

const b = setupBrowser();
const tag = Date.now().toString(36);
const day = campusDay;
const student = (name: string, viewport?: { width: number; height: number }) =>
  newStudent(b, { name, surname: 'Extend', tag, viewport });

describe('extension journey', () => {
  journeySteps();
  let lena: Page;
  let bo: Page;
  const title = `Projector ${tag}`;

  beforeAll(async () => {
    [lena, bo] = await Promise.all([student('Lena'), student('Bo', { width: 375, height: 812 })]);
    // The booking as the Reserve dialog makes it: $8 for two days, the test card, then the request.
    const requested = await paidRequestThroughApi(
      lena,
      bo,
      { title, description: 'A small LED projector with an HDMI cable and a remote.' },
      { startDate: day(1), endDate: day(3) },
    );
    await callApi(lena, 'POST', `/api/reservations/${requested.reservationId}/approve`, {});
  });

  const cardOf = (page: Page) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

  it('Bo asks for two more days from his phone and pays the extra rental', async () => {
    await bo.goto('/reservations');
    const card = cardOf(bo);
    await card.getByRole('button', { name: 'Ask for more days' }).click();
    const dialog = bo.getByRole('dialog', { name: 'Ask for more days' });
    await dialog.getByLabel('New return date').fill(day(5));
    await dialog.getByText('Extra rental: $8.00 + $1.00 service fee').waitFor();
    await expectAccessible(bo);
    await bo.screenshot({ path: '/tmp/extension-dialog-375.png' });
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    const { expMonth, expYear } = cardExpiry(12);
    await dialog
      .getByLabel('Expiry (MM / YY)')
      .fill(`${String(expMonth).padStart(2, '0')} / ${String(expYear).slice(-2)}`);
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Hold $9.00' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card
      .getByText(`Extension requested to ${formatDayLabel(day(5))} · $8.00 · waiting for Lena Extend`)
      .waitFor();
    await card.getByRole('button', { name: 'Take back request' }).waitFor();
    await expectAccessible(bo);
    // Without the toast, to see the card as it stays.
    await bo.reload();
    await cardOf(bo).getByRole('button', { name: 'Take back request' }).scrollIntoViewIfNeeded();
    await bo.screenshot({ path: '/tmp/extension-card-borrower-375.png' });
  });

  it('Lena approves on her card and the booking now ends two days later', async () => {
    await lena.setViewportSize({ width: 1280, height: 900 });
    await lena.goto('/reservations');
    await lena.getByRole('tab', { name: /Lending/ }).click();
    const card = cardOf(lena);
    await card
      .getByText(`Extension requested to ${formatDayLabel(day(5))} · $8.00 · waiting for you`)
      .waitFor();
    await expectAccessible(lena);
    await lena.screenshot({ path: '/tmp/extension-card-lender-1280.png' });
    await card.getByRole('button', { name: 'Approve extension' }).click();
    await lena
      .getByText(`${title} is now due back on ${formatDayLabel(day(5))}.`)
      .first()
      .waitFor();
    await card.getByRole('button', { name: 'Approve extension' }).waitFor({ state: 'detached' });
    await card.getByText(`${formatDayLabel(day(1))} - ${formatDayLabel(day(5))}`).waitFor();
    await lena.screenshot({ path: '/tmp/extension-approved-1280.png' });

    await bo.reload();
    const card2 = cardOf(bo);
    await card2.getByText(`${formatDayLabel(day(1))} - ${formatDayLabel(day(5))}`).waitFor();
    await card2.getByRole('button', { name: 'Ask for more days' }).waitFor();
    await card2.getByText('$8.00 rental + $1.00 service fee + $9.00 for more days').waitFor();
    await bo.setViewportSize({ width: 1280, height: 900 });
    await bo.screenshot({ path: '/tmp/extension-card-borrower-1280.png' });
  });

  it('a card that asks for 3-D Secure: after the bank, the request is sent and the card says so', async () => {
    await bo.goto('/reservations');
    const card = cardOf(bo);
    await card.getByRole('button', { name: 'Ask for more days' }).click();
    const dialog = bo.getByRole('dialog', { name: 'Ask for more days' });
    await dialog.getByLabel('New return date').fill(day(7));
    await dialog.getByText('Extra rental: $8.00 + $1.00 service fee').waitFor();
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await dialog.getByLabel('Card number').fill('4000 0027 6000 3184');
    const { expMonth, expYear } = cardExpiry(12);
    await dialog
      .getByLabel('Expiry (MM / YY)')
      .fill(`${String(expMonth).padStart(2, '0')} / ${String(expYear).slice(-2)}`);
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Hold $9.00' }).click();
    await bo.getByRole('heading', { name: 'Confirm your payment', level: 1 }).waitFor();
    await bo.getByRole('button', { name: 'Complete authentication' }).click();
    await bo.waitForURL((url) => url.pathname === '/reservations');
    await bo.getByText('Request sent').first().waitFor();
    await cardOf(bo)
      .getByText(`Extension requested to ${formatDayLabel(day(7))} · $8.00 · waiting for Lena Extend`)
      .waitFor();
    await cardOf(bo).getByRole('button', { name: 'Take back request' }).click();
    await cardOf(bo).getByRole('button', { name: 'Ask for more days' }).waitFor();
  });
});

// The reminders' journey: the demo campus's reminder job told Diego that Priya's course reader is due back
// (src/server/demo/reminders.ts, sent by the reminder service itself). The reminder opens the booking's
// card, he asks for two more days (a free item: nothing to pay), and Priya approves. No other journey
// touches this booking.
describe('a return reminder, two more days, approved', () => {
  journeySteps();
  const reader = 'Psychology 1 reader and notes';
  let diego: Page;
  let priya: Page;
  // Due back today, or tomorrow when the demo was loaded late in the evening (src/server/demo/reminders.ts).
  let due: string;
  const dueIn = (days: number) => addDays(due, days);
  const cardOf = (page: Page) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: reader }) });

  beforeAll(async () => {
    [diego, priya] = await Promise.all([b.newPage({ width: 375, height: 812 }), b.newPage()]);
    await Promise.all([
      signIn(diego, 'diego.ramirez@stanford.edu'),
      signIn(priya, 'priya.patel@stanford.edu'),
    ]);
    const mine = (await (await diego.request.get('/api/reservations')).json()) as {
      reservations: { status: string; endDate: string; item: { title: string } }[];
    };
    due = mine.reservations.find((r) => r.item.title === reader && r.status === 'active')!.endDate;
  });

  it('Diego opens the return reminder and asks for two more days from the card it leads to', async () => {
    await diego.goto('/notifications');
    await diego.getByRole('tab', { name: /All/ }).click();
    const reminder = diego
      .getByRole('listitem')
      .filter({ hasText: `${reader} is due back to Priya Patel` })
      .first();
    await reminder.getByRole('heading', { name: /Return due (today|tomorrow)/ }).waitFor();
    await reminder.getByRole('link', { name: 'Open reservation' }).click();
    await diego.waitForURL((url) => url.pathname === '/reservations');
    const card = cardOf(diego);
    await card.getByRole('button', { name: 'Ask for more days' }).click();
    const dialog = diego.getByRole('dialog', { name: 'Ask for more days' });
    await dialog.getByLabel('New return date').fill(dueIn(2));
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Take back request' }).waitFor();
    await expectAccessible(diego);
  });

  it('Priya approves, and the reader is now due back two days later', async () => {
    await priya.goto('/reservations');
    await priya.getByRole('tab', { name: /Lending/ }).click();
    const card = cardOf(priya);
    await card.getByRole('button', { name: 'Approve extension' }).click();
    await priya
      .getByText(`${reader} is now due back on ${formatDayLabel(dueIn(2))}.`)
      .first()
      .waitFor();
    await card.getByText(`${formatDayLabel(dueIn(-4))} - ${formatDayLabel(dueIn(2))}`).waitFor();

    await diego.reload();
    await cardOf(diego)
      .getByText(`${formatDayLabel(dueIn(-4))} - ${formatDayLabel(dueIn(2))}`)
      .waitFor();
    await cardOf(diego).getByRole('button', { name: 'Ask for more days' }).waitFor();
  });
});
