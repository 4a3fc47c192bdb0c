import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, campusDay, expectAccessible, journeySteps, newStudent, setupBrowser } from './helpers.ts';

// Wes finds the days he needs of Lena's camera booked by Bo, asks to be told when they
// free up, sees what he waits for on the item page, and when Bo cancels his notification's 'Reserve now'
// opens the Reserve dialog on those days; he requests them. Three students of its own, registered here,
// and an item of its own: other journeys share the server.

const b = setupBrowser();
const tag = Date.now().toString(36);
const day = campusDay;
const student = (name: string, viewport?: { width: number; height: number }) =>
  newStudent(b, { name, surname: 'Waitlist', tag, viewport });

describe('waitlist journey', () => {
  journeySteps();
  let lena: Page;
  let bo: Page;
  let wes: Page;
  let itemId = '';
  let reservationId = '';
  const title = `Film camera ${tag}`;

  beforeAll(async () => {
    [lena, bo, wes] = await Promise.all([
      student('Lena'),
      student('Bo'),
      student('Wes', { width: 375, height: 812 }),
    ]);
    const listed = await callApi(lena, 'POST', '/api/items', {
      title,
      description: 'A 35 mm film camera with a 50 mm lens and a strap.',
      category: 'electronics',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'White Plaza',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    itemId = listed.item.id;
    const requested = await callApi(bo, 'POST', '/api/reservations', {
      itemId,
      startDate: day(3),
      endDate: day(5),
    });
    reservationId = requested.reservation.id;
    await callApi(lena, 'POST', `/api/reservations/${reservationId}/approve`, {});
  });

  it('the booked days can be waited for from the Reserve dialog', async () => {
    await wes.goto(`/item/${itemId}`);
    await wes.getByRole('heading', { name: title, level: 1 }).waitFor();
    // From the Reserve dialog, whose calendar greys the booked days out.
    await wes.getByRole('button', { name: 'Reserve Item' }).click();
    const handover = wes.getByRole('dialog').getByRole('button', { name: 'Get notified when they free up' });
    await handover.scrollIntoViewIfNeeded();
    await wes.screenshot({ path: '/tmp/waitlist-handover-375.png' });
    await handover.click();
    const dialog = wes.getByRole('dialog', { name: 'Notify me when available' });
    // It starts on the booked days, the ones a student most likely wants.
    await expect.poll(() => dialog.getByLabel('Start date').inputValue()).toBe(day(3));
    expect(await dialog.getByLabel('End date').inputValue()).toBe(day(5));
    await expectAccessible(wes);
    await wes.screenshot({ path: '/tmp/waitlist-dialog-375.png' });
    await dialog.getByRole('button', { name: 'Notify me' }).click();
    await dialog.waitFor({ state: 'detached' });

    const line = wes.getByRole('list', { name: 'Your waitlist for this item' }).getByRole('listitem');
    await line.filter({ hasText: /^We'll tell you when .+ frees up/ }).waitFor();
    await line.getByRole('button', { name: /^Leave waitlist for / }).waitFor();
    await expectAccessible(wes);
    await wes.screenshot({ path: '/tmp/waitlist-item-375.png', fullPage: false });
    await wes.setViewportSize({ width: 1280, height: 900 });
    await wes.screenshot({ path: '/tmp/waitlist-item-1280.png' });
  });

  it('when Bo cancels, Wes is told and "Reserve now" opens the Reserve dialog on those days', async () => {
    await callApi(bo, 'PUT', `/api/reservations/${reservationId}`, { status: 'cancelled' });

    await wes.goto('/notifications');
    await wes.getByRole('tab', { name: /All Notifications/ }).click();
    const notice = wes.getByRole('tabpanel').locator('div').filter({ hasText: 'Your dates are free' }).last();
    await notice.getByText(`${title} is free for`, { exact: false }).waitFor();
    await expectAccessible(wes);
    await wes.screenshot({ path: '/tmp/waitlist-notification-1280.png' });
    await notice.getByRole('link', { name: 'Reserve now' }).click();

    const dialog = wes.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Reserve ${title}` }).waitFor();
    // Three days from today to five: two days, not the dialog's default of a week.
    await dialog.getByText('Borrowing period: 2 days').waitFor();
    await wes.screenshot({ path: '/tmp/waitlist-reserve-1280.png' });
    await dialog.getByRole('button', { name: 'Request to Borrow' }).click();
    await dialog
      .getByText(/Request sent/)
      .first()
      .waitFor();
  });

  it('the item page then shows his request, not the told dates again', async () => {
    await wes.goto(`/item/${itemId}`);
    await wes.getByText(/^Requested .+ · Pending$/).waitFor();
    await wes.getByRole('button', { name: 'Notify me when available' }).waitFor();
    expect(await wes.getByRole('list', { name: 'Your waitlist for this item' }).count()).toBe(0);
    await wes.evaluate(() => window.scrollTo(0, 0));
    await wes.screenshot({ path: '/tmp/waitlist-requested-1280.png' });
  });
});
