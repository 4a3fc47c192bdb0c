import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { callApi, campusDay, expectAccessible, newStudent, setupBrowser } from './helpers.ts';

// The Reserve dialog on a phone tells the truth: the refund it promises for a start of today, a refused
// card's reason under the card field (and another card then goes through), and days someone else has
// asked for, shown as such and offered to the waitlist. Students and items of its own: journeys share the
// server.

const b = setupBrowser();
const tag = Date.now().toString(36);
const day = campusDay;
const PHONE = { width: 375, height: 667 };
const student = (name: string, language?: 'es') =>
  newStudent(b, { name, surname: 'Reserve', tag, viewport: PHONE, language });

async function listItem(
  lender: Page,
  title: string,
  money: { rentalPrice?: string; depositAmount?: string },
) {
  const listed = await callApi(lender, 'POST', '/api/items', {
    title,
    description: 'Lent for the Reserve dialog journey; a sturdy, clean thing.',
    category: 'tools',
    condition: 'good',
    pickupMethod: 'meetup',
    pickupLocation: 'White Plaza',
    availableFrom: '2026-01-01',
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    images: [],
    ...money,
    ...(money.rentalPrice ? { rentalPeriod: 'day' } : {}),
    cancellationPolicy: 'flexible',
  });
  return listed.item.id as string;
}

async function openReserve(page: Page, itemId: string, dates?: { startDate: string; endDate: string }) {
  const query = dates ? `&start=${dates.startDate}&end=${dates.endDate}` : '';
  await page.goto(`/item/${itemId}?reserve=1${query}`);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('grid').waitFor();
  return dialog;
}

/** The screen at phone size with `shown` in view, then at desktop size (looked at before merging). */
async function shoot(page: Page, shown: Locator, name: string) {
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/${name}-375.png` }).catch(() => undefined);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/${name}-1280.png` }).catch(() => undefined);
  await page.setViewportSize(PHONE);
}

/** What a screen reader reads as a field's description: the texts its aria-describedby names. */
function description(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

describe('the Reserve dialog on a phone', () => {
  let lender: Page;
  let paidItem = '';
  let freeItem = '';

  beforeAll(async () => {
    lender = await newStudent(b, { name: 'Lena', surname: 'Reserve', tag });
    paidItem = await listItem(lender, `Cordless sander ${tag}`, {
      rentalPrice: '6.00',
      depositAmount: '60.00',
    });
    freeItem = await listItem(lender, `Tile cutter ${tag}`, {});
  });

  it('a start of today names what a cancellation returns now, not a deadline already gone', async () => {
    const borrower = await student('Bea');
    const dialog = await openReserve(borrower, paidItem);
    // Flexible: the full refund ended 24 hours before today's start, so only the deposit comes back.
    const sentence = dialog.getByText('If you cancel now, only the $60.00 deposit comes back.');
    await sentence.waitFor();
    expect(await dialog.getByText(/Cancel by/).count()).toBe(0);
    await expectAccessible(borrower);
    await shoot(borrower, sentence, 'u1-refund-now');

    const spanish = await student('Eva', 'es');
    const dialogEs = await openReserve(spanish, paidItem);
    const frase = dialogEs.getByText('Si cancelas ahora, solo recuperas el depósito de $60.00.');
    await frase.waitFor();
    expect(await dialogEs.getByText(/Cancela antes del/).count()).toBe(0);
    await shoot(spanish, frase, 'u1-refund-now-es');
  });

  it('a refused card says why under the card field, keeps the dialog, and another card goes through', async () => {
    for (const [name, language, declined, pay, sent] of [
      ['Cal', undefined, 'Your card was declined. Try another card.', /^Pay \$/, /Request sent/],
      ['Ines', 'es', 'Tu tarjeta fue rechazada. Prueba con otra tarjeta.', /^Pagar /, /Solicitud enviada/],
    ] as const) {
      const borrower = await student(name, language);
      // Near dates: the card is held now (far ones save it, decision 062: deferred-authorisation.spec).
      const dialog = await openReserve(borrower, paidItem, { startDate: day(2), endDate: day(3) });
      await dialog
        .getByRole('button', { name: language ? /Continuar al pago/ : 'Continue to Payment' })
        .click();
      const number = dialog.getByLabel(language ? 'Número de tarjeta' : 'Card number');
      await number.fill('4000 0000 0000 0002');
      await dialog
        .getByLabel(language ? /Vencimiento/ : 'Expiry (MM / YY)')
        .fill(typedExpiry(cardExpiry(12)));
      await dialog.getByLabel('CVC').fill('123');
      await dialog.getByRole('button', { name: pay }).click();

      // The reason is the card field's own error, read with it; the dialog stays on the card form.
      await expect.poll(() => number.getAttribute('aria-invalid')).toBe('true');
      expect(await description(number)).toBe(declined);
      await dialog.getByText(declined).waitFor();
      await expect.poll(() => number.evaluate((el) => el === document.activeElement)).toBe(true);
      await expectAccessible(borrower);
      await shoot(borrower, number, `u1-declined-${language ?? 'en'}`);

      await number.fill('4242 4242 4242 4242');
      expect(await number.getAttribute('aria-invalid')).toBeNull();
      await dialog.getByRole('button', { name: pay }).click();
      await dialog.getByText(sent).first().waitFor();
    }
  });

  it('days someone asked for show as requested, can still be chosen, and can be waited for', async () => {
    const requester = await student('Rio');
    await callApi(requester, 'POST', '/api/reservations', {
      itemId: freeItem,
      startDate: day(3),
      endDate: day(5),
    });

    const borrower = await student('Max');
    // The calendar opens on the start's month: a start on a requested day shows that day.
    const dialog = await openReserve(borrower, freeItem, { startDate: day(3), endDate: day(4) });
    const note = dialog.getByText(
      'Some of these days are requested by someone: the lender may approve them first.',
    );
    await note.waitFor();
    const requestedDay = dialog.locator(`[data-day="${day(3)}"]`);
    expect(await requestedDay.getAttribute('aria-disabled')).toBeNull();
    expect(await description(requestedDay)).toContain(
      'Requested by someone: the lender may approve them first.',
    );
    await expectAccessible(borrower);
    await shoot(borrower, note, 'u1-requested');

    // The waitlist, for those days.
    await dialog.getByRole('button', { name: 'Get notified if they free up' }).click();
    const waitlist = borrower.getByRole('dialog', { name: 'Notify me when available' });
    await expect.poll(() => waitlist.getByLabel('Start date').inputValue()).toBe(day(3));
    expect(await waitlist.getByLabel('End date').inputValue()).toBe(day(5));
    await waitlist.getByRole('button', { name: 'Notify me' }).click();
    await waitlist.waitFor({ state: 'detached' });
    await borrower
      .getByRole('list', { name: 'Your waitlist for this item' })
      .getByText(/^We'll tell you when .+ frees up/)
      .waitFor();

    const spanish = await student('Sol', 'es');
    const dialogEs = await openReserve(spanish, freeItem, { startDate: day(4), endDate: day(6) });
    await dialogEs
      .getByText('Alguien ha pedido algunos de estos días: quien presta puede aprobar esa solicitud antes.')
      .waitFor();
    const aviso = dialogEs.getByRole('button', { name: 'Recibe un aviso si quedan libres' });
    await aviso.waitFor();
    await shoot(spanish, aviso, 'u1-requested-es');
  });
});
