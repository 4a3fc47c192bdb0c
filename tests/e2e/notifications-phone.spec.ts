import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  callApi,
  campusDay,
  expectAccessible,
  journeySteps,
  newStudent,
  paidRequestThroughApi,
  setupBrowser,
} from './helpers.ts';

// Spanish notification cards at 375 px, on the notifications page and in the bell: long titles,
// messages and buttons wrap inside their card, never past its edge, and the actions sit in a row of
// their own instead of squeezing the text.

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };

/**
 * Every element inside `cards` whose content is wider than its box (scrollWidth > clientWidth), or
 * that reaches past its card's edge: text that overflows. Described for the failure message.
 */
async function overflowing(cards: Locator): Promise<string[]> {
  return cards.evaluateAll((elements) =>
    elements.flatMap((card) => {
      const edge = card.getBoundingClientRect();
      return [card, ...card.querySelectorAll<HTMLElement>('*')]
        .filter((el) => {
          if (el.getClientRects().length === 0) return false;
          // Words only screen readers read (sr-only: a clipped 1 px box) overflow it on purpose.
          if (el.clientWidth <= 1 && getComputedStyle(el).position === 'absolute') return false;
          const box = el.getBoundingClientRect();
          const wider = el.scrollWidth > el.clientWidth + 1;
          const past = box.right > edge.right + 1 || box.left < edge.left - 1;
          return wider || past;
        })
        .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 60)}"`);
    }),
  );
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true }).catch(() => undefined);
}

describe('Spanish notification cards on a phone', () => {
  journeySteps();
  const tag = Math.random().toString(36).slice(2, 8);
  let lender: Page;

  it('a Spanish lender has a request, a badge and a welcome waiting', async () => {
    lender = await newStudent(b, {
      name: 'Inmaculada',
      surname: 'Villanueva',
      tag,
      viewport: PHONE,
      language: 'es',
    });
    await callApi(lender, 'PUT', '/api/account/language', { locale: 'es' });
    const borrower = await newStudent(b, { name: 'Bartolome', surname: 'Echeverria', tag });
    await paidRequestThroughApi(
      lender,
      borrower,
      {
        title: 'Calculadora gráfica científica con funda protectora y cable de datos',
        description: 'Para cálculo, estadística y física: pilas nuevas, funda y cable incluidos.',
      },
      { startDate: campusDay(6), endDate: campusDay(8) },
    );
    await borrower.context().close();
  });

  it('the notifications page: every card’s text and buttons stay inside it', async () => {
    await lender.goto('/notifications');
    await lender.getByRole('heading', { name: 'Notificaciones', level: 1 }).waitFor();
    for (const tab of [/^Solicitudes/, /^Todas/]) {
      await lender.getByRole('tab', { name: tab }).click();
      const cards = lender.getByRole('tabpanel').getByRole('listitem');
      await cards.first().waitFor();
      // The request's decision is there, in Spanish.
      if (String(tab).includes('Solicitudes')) {
        await lender.getByRole('button', { name: /Aprobar/ }).waitFor();
        await lender.getByRole('button', { name: /Rechazar/ }).waitFor();
      }
      expect(await cards.count()).toBeGreaterThan(0);
      expect(await overflowing(cards), 'text past its card').toEqual([]);
    }
    // The tabs fit the screen too.
    expect(await overflowing(lender.getByRole('tablist', { name: 'Listas de notificaciones' }))).toEqual([]);
    await shoot(lender, 'notifications-es-phone');
    await expectAccessible(lender);
  });

  it('the bell: every entry’s text and buttons stay inside it', async () => {
    await lender.goto('/');
    await lender.getByRole('button', { name: /^Notificaciones, \d+ sin leer/ }).click();
    const menu = lender.getByRole('menu');
    await menu
      .getByText(/Calculadora gráfica/)
      .first()
      .waitFor();
    const entries = menu.locator(':scope > div').filter({ has: lender.locator('p') });
    expect(await entries.count()).toBeGreaterThan(1);
    expect(await overflowing(menu), 'text past the bell panel').toEqual([]);
    expect(await overflowing(entries), 'text past its entry').toEqual([]);
    const panel = await menu.boundingBox();
    if (!panel) throw new Error('the bell panel is not shown');
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(PHONE.width);
    await lender.screenshot({ path: '/tmp/shots/bell-es-phone.png' }).catch(() => undefined);
    await expectAccessible(lender);
    await lender.context().close();
  });
});
