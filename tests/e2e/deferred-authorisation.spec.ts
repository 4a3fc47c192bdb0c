import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { callApi, campusDay, expectAccessible, newStudent, setupBrowser } from './helpers.ts';

// Decision 062 on a phone: a booking that starts weeks ahead saves the card in the Reserve dialog and
// says when it is charged (English and Spanish); My Reservations says it again on the booking's card.

const b = setupBrowser();
const tag = Date.now().toString(36);
const day = campusDay;
const PHONE = { width: 375, height: 667 };

async function shoot(page: Page, shown: Locator, name: string) {
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/${name}-375.png` }).catch(() => undefined);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/${name}-1280.png` }).catch(() => undefined);
  await page.setViewportSize(PHONE);
}

describe('a reservation weeks ahead', () => {
  let itemId = '';

  beforeAll(async () => {
    const lender = await newStudent(b, { name: 'Dee', surname: 'Ahead', tag });
    const listed = await callApi(lender, 'POST', '/api/items', {
      title: `Camping stove ${tag}`,
      description: 'Lent for the far-ahead reservation journey; clean and working.',
      category: 'tools',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'White Plaza',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
      rentalPrice: '6.00',
      rentalPeriod: 'day',
      depositAmount: '30.00',
      cancellationPolicy: 'flexible',
    });
    itemId = listed.item.id;
  });

  it('saves the card, says when it is charged, and the booking card says it again', async () => {
    for (const [name, language, words, save, sent, card] of [
      [
        'Ari',
        undefined,
        /Your card is saved now and charged/,
        'Save Card and Send Request',
        /Request sent/,
        /Your saved card is charged on/,
      ],
      [
        'Bea',
        'es',
        /Tu tarjeta se guarda ahora/,
        'Guardar tarjeta y enviar solicitud',
        /Solicitud enviada/,
        /Tu tarjeta guardada se cobra el/,
      ],
    ] as const) {
      const borrower = await newStudent(b, { name, surname: 'Ahead', tag, viewport: PHONE, language });
      await borrower.goto(`/item/${itemId}?reserve=1&start=${day(21)}&end=${day(23)}`);
      const dialog = borrower.getByRole('dialog');
      await dialog.getByRole('grid').waitFor();
      await dialog
        .getByRole('button', { name: language ? /Continuar al pago/ : 'Continue to Payment' })
        .click();
      const notice = dialog.getByText(words);
      await notice.waitFor();
      await dialog.getByLabel(language ? 'Número de tarjeta' : 'Card number').fill('4242 4242 4242 4242');
      await dialog
        .getByLabel(language ? /Vencimiento/ : 'Expiry (MM / YY)')
        .fill(typedExpiry(cardExpiry(12)));
      await dialog.getByLabel('CVC').fill('123');
      await expectAccessible(borrower);
      await shoot(borrower, notice, `deferred-dialog-${language ?? 'en'}`);
      await dialog.getByRole('button', { name: save }).click();
      await dialog.getByText(sent).first().waitFor();

      await borrower.goto('/reservations');
      const line = borrower.getByText(card).first();
      await line.waitFor();
      expect(await line.isVisible()).toBe(true);
      await shoot(borrower, line, `deferred-card-${language ?? 'en'}`);
    }
  });
});
