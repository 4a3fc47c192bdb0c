import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  campusDay,
  expectAccessible,
  journeySteps,
  newStudent,
  paidRequestThroughApi,
  setupBrowser,
} from './helpers.ts';

// Getting paid, on a 375 px phone (decision 056): Nia lends for the first time without payouts. Her
// pending request's card says payouts are needed and leads to Get paid; Approve refuses with the way
// there; the test provider's onboarding page completes it and Settings reads the account active. She
// approves, takes the pickup code at the handover, and her Earnings page shows the transfer Sent (the
// server runs with PAYOUT_DELAY_HOURS=0). Ines does the same in Spanish, more briefly, up to "Enviado".

const b = setupBrowser();
const tag = Date.now().toString(36);
const PHONE = { width: 375, height: 667 };

async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/**
 * The Earnings page until the item's transfer shows `status`: the transfer job runs in the server's
 * worker after the pickup, so the page is read again until it has.
 */
async function waitForTransferStatus(page: Page, title: string, status: RegExp) {
  const row = page.getByTestId('earnings-transfer').filter({ hasText: title });
  for (let attempt = 0; attempt < 30; attempt += 1) {
    await page.goto('/earnings');
    await page.getByTestId('earnings-totals').waitFor();
    const shown = row.getByTestId('earnings-transfer-status').filter({ hasText: status });
    try {
      await shown.waitFor({ timeout: 2000 });
      return row;
    } catch {
      // Not sent yet: read the page again.
    }
  }
  throw new Error(`the transfer for ${title} never showed ${status}`);
}

describe('A new lender gets paid', () => {
  journeySteps();
  let nia: Page;
  let omar: Page;
  const title = `Camping stove ${tag}`;
  const cardOf = (page: Page) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

  beforeAll(async () => {
    [nia, omar] = await Promise.all([
      newStudent(b, { name: 'Nia', surname: 'Earns', tag, viewport: PHONE, payouts: false }),
      newStudent(b, { name: 'Omar', surname: 'Earns', tag, viewport: PHONE }),
    ]);
    await paidRequestThroughApi(
      nia,
      omar,
      // Strict: an early return gives no rental back, so the whole rental is certain at pickup and goes.
      {
        title,
        description: 'A two-burner camping stove with a windshield and a gas canister.',
        cancellationPolicy: 'strict',
      },
      { startDate: campusDay(0), endDate: campusDay(2) },
    );
  });

  it('before any booking, Earnings says there is nothing yet and that payouts are not set up', async () => {
    await nia.goto('/earnings');
    await nia.getByRole('heading', { name: 'Payouts are not set up' }).waitFor();
    await nia.getByRole('heading', { name: 'No earnings yet' }).waitFor();
    await nia.getByRole('link', { name: 'List an item' }).waitFor();
    await expectNoSideScroll(nia);
    await expectAccessible(nia);
    await nia.screenshot({ path: '/tmp/earnings-empty-375.png', fullPage: true });
  });

  it('the pending request’s card says payouts are needed, and Approve leads to Get paid', async () => {
    await nia.goto('/reservations');
    const card = cardOf(nia);
    const note = card.getByTestId('payouts-needed');
    await note.getByText('Set up payouts to accept this paid request').waitFor();
    await expectAccessible(nia);
    await nia.screenshot({ path: '/tmp/earnings-card-needs-payouts-375.png', fullPage: true });

    await card.getByRole('button', { name: 'Approve' }).click();
    // The refusal names the way out: a toast with a Get paid button.
    // (Radix also reads the toast out from a copy of its words: either will do.)
    await nia.getByText('Set up payouts first').first().waitFor();
    await nia.getByRole('button', { name: 'Get paid' }).first().waitFor();

    await note.getByRole('link', { name: 'Go to Get paid' }).focus();
    await nia.keyboard.press('Enter');
    await nia.waitForURL((url) => url.pathname === '/settings' && url.hash === '#get-paid');
    await nia
      .getByTestId('payout-status')
      .getByText(/^Not set up/)
      .waitFor();
  });

  it('the test provider’s onboarding completes it and Settings reads the account active', async () => {
    await nia.getByRole('button', { name: 'Set up payouts' }).click();
    await nia.waitForURL((url) => url.pathname === '/payouts/test/onboarding');
    await nia.getByRole('button', { name: 'Complete onboarding' }).click();
    await nia.waitForURL((url) => url.pathname === '/settings');
    await nia
      .getByTestId('payout-status')
      .getByText(/^Active\./)
      .waitFor();
    await nia.getByRole('link', { name: 'See your earnings' }).waitFor();
  });

  it('she approves, and at the handover types the pickup code Omar shows', async () => {
    await nia.goto('/reservations');
    await nia.getByRole('tab', { name: /^Lending/ }).click();
    const card = cardOf(nia);
    await card.getByRole('button', { name: 'Approve' }).waitFor();
    expect(await card.getByTestId('payouts-needed').count()).toBe(0);
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByRole('button', { name: 'Picked Up' }).waitFor();

    await omar.goto('/reservations');
    const omarsCard = omar
      .locator('div')
      .filter({ has: omar.getByRole('article', { name: title }) })
      .filter({ hasText: 'Pickup Code:' })
      .last();
    await omarsCard.waitFor();
    const pickupCode = (await omarsCard.locator('p.font-mono').textContent())?.replace(/\D/g, '') ?? '';
    expect(pickupCode).toMatch(/^\d{6}$/);

    await card.getByRole('button', { name: 'Picked Up' }).click();
    const dialog = nia.getByRole('dialog', { name: 'Confirm pickup' });
    await dialog.getByLabel('Pickup code').fill(pickupCode);
    await dialog.getByRole('button', { name: 'Confirm Pickup' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Active', { exact: true }).first().waitFor();
  });

  it('her Earnings page shows the first part of the rental Sent, with the totals', async () => {
    const row = await waitForTransferStatus(nia, title, /^Sent /);
    await row.getByText('First part of the rental').waitFor();
    expect(await nia.getByTestId('earnings-payouts-status').count()).toBe(0);
    const totals = nia.getByTestId('earnings-totals');
    await totals.getByText('Sent to Stripe').waitFor();
    expect(await totals.getByText('$0.00').count()).toBeLessThan(3);
    await expectNoSideScroll(nia);
    await expectAccessible(nia);
    await nia.screenshot({ path: '/tmp/earnings-sent-375.png', fullPage: true });
    await nia.setViewportSize({ width: 1280, height: 800 });
    await nia.screenshot({ path: '/tmp/earnings-sent-1280.png', fullPage: true });
    await nia.setViewportSize(PHONE);

    // The dashboard button is there for a lender whose account exists.
    await nia.getByRole('button', { name: 'Open my Stripe dashboard' }).waitFor();
  });
});

describe('Una nueva prestamista cobra, en español', () => {
  journeySteps();
  let ines: Page;
  let leo: Page;
  const title = `Linterna ${tag}`;
  let reservationId: string;

  beforeAll(async () => {
    [ines, leo] = await Promise.all([
      newStudent(b, { name: 'Ines', surname: 'Cobra', tag, viewport: PHONE, language: 'es', payouts: false }),
      newStudent(b, { name: 'Leo', surname: 'Cobra', tag, viewport: PHONE, language: 'es' }),
    ]);
    ({ reservationId } = await paidRequestThroughApi(
      ines,
      leo,
      {
        title,
        description: 'Una linterna frontal recargable con tres modos de luz y correa.',
        cancellationPolicy: 'strict',
      },
      { startDate: campusDay(0), endDate: campusDay(2) },
    ));
  });

  it('la tarjeta de la solicitud lleva a Cobrar, y la configuración la activa', async () => {
    await ines.goto('/reservations');
    const note = ines.getByTestId('payouts-needed');
    await note.getByText('Configura los cobros para aceptar esta solicitud de pago').waitFor();
    await note.getByRole('link', { name: 'Ir a Cobrar' }).click();
    await ines.waitForURL((url) => url.pathname === '/settings');
    await ines.getByRole('button', { name: 'Configurar los cobros' }).click();
    await ines.waitForURL((url) => url.pathname === '/payouts/test/onboarding');
    await ines.getByRole('button', { name: 'Completar el registro' }).click();
    await ines.waitForURL((url) => url.pathname === '/settings');
    await ines
      .getByTestId('payout-status')
      .getByText(/^Activ/)
      .waitFor();
  });

  it('aprobada y recogida, Ganancias muestra el pago Enviado', async () => {
    await callApi(ines, 'POST', `/api/reservations/${reservationId}/approve`, {});
    await callApi(leo, 'PUT', `/api/reservations/${reservationId}`, { status: 'active' });
    const row = await waitForTransferStatus(ines, title, /^Enviado el /);
    await row.getByText('Primera parte del alquiler').waitFor();
    await ines.getByRole('heading', { name: 'Ganancias', level: 1 }).waitFor();
    await expectNoSideScroll(ines);
    await expectAccessible(ines);
    await ines.screenshot({ path: '/tmp/earnings-sent-es-375.png', fullPage: true });
  });
});
