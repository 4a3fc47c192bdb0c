import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  campusDay,
  expectAccessible,
  journeySteps,
  newStudent,
  setupBrowser,
  signIn,
} from './helpers.ts';

// Ask your campus, on a phone, in English and in Spanish: Ana searches for something nobody lists, asks
// the campus from the empty result, Teo offers his listing from the "Asked for" board, Ana reserves it
// from the offer on her ask's days, Teo approves, and her ask shows closed. Students and items of their
// own: other journeys share the server.

const b = setupBrowser();
const day = campusDay;

const WORDS = {
  en: {
    ask: 'Ask your campus',
    what: 'What do you need?',
    category: 'Category',
    from: 'From',
    until: 'Until',
    freeOnly: 'Free only',
    yourAsks: 'Your asks',
    haveOne: 'I have one',
    offerDialog: 'Offer one of your listings',
    offerThis: 'Offer this item',
    reserveFor: /^Reserve for /,
    requestToBorrow: 'Request to Borrow',
    requestSent: /Request sent/,
    closed: 'Closed: reserved from an offer',
    noItems: 'No items found',
  },
  es: {
    ask: 'Pregunta a tu campus',
    what: '¿Qué necesitas?',
    category: 'Categoría',
    from: 'Desde',
    until: 'Hasta',
    freeOnly: 'Solo gratis',
    yourAsks: 'Tus peticiones',
    haveOne: 'Yo tengo uno',
    offerDialog: 'Ofrece uno de tus artículos',
    offerThis: 'Ofrecer este artículo',
    reserveFor: /^Reservar para /,
    requestToBorrow: 'Pedir prestado',
    requestSent: /Solicitud enviada/,
    closed: 'Cerrada: reservada desde una oferta',
    noItems: 'No se encontraron artículos',
  },
} as const;

describe.each(['en', 'es'] as const)('ask your campus journey (%s)', (language) => {
  journeySteps();
  const words = WORDS[language];
  const tag = `${Date.now().toString(36)}${language}`;
  // A made-up word nobody else lists (nor the other language's run: searches match similar words), so
  // the search finds nothing until Teo's item exists.
  const thing = Array.from({ length: 9 }, () => 'bcdfghjklmnpqrstvwxz'[Math.floor(Math.random() * 20)]).join(
    '',
  );
  let ana: Page;
  let teo: Page;
  let itemId = '';

  beforeAll(async () => {
    [ana, teo] = await Promise.all([
      newStudent(b, {
        name: 'Ana',
        surname: 'Asks',
        tag,
        viewport: { width: 375, height: 667 },
        ...(language === 'es' ? { language } : {}),
      }),
      newStudent(b, { name: 'Teo', surname: 'Asks', tag, ...(language === 'es' ? { language } : {}) }),
    ]);
  });

  it('a search that finds nothing leads to the Ask form, filled in', async () => {
    await ana.goto(`/browse?q=${encodeURIComponent(thing)}`);
    await ana.getByRole('heading', { name: words.noItems }).waitFor();
    await ana.getByRole('link', { name: words.ask }).click();
    const form = ana.getByRole('form', { name: words.ask });
    await expect.poll(() => form.getByLabel(words.what).inputValue()).toBe(thing);
    await form.getByLabel(words.category).selectOption('tools');
    await form.getByLabel(words.from, { exact: true }).fill(day(1));
    await form.getByLabel(words.until, { exact: true }).fill(day(2));
    await form.getByLabel(words.freeOnly).check();
    await expectAccessible(ana);
    await ana.screenshot({ path: `/tmp/asks-form-375-${language}.png`, fullPage: true });
    await form.getByRole('button', { name: words.ask }).click();
    await form.waitFor({ state: 'detached' });
    const mine = ana.getByRole('region', { name: words.yourAsks });
    await mine.getByRole('heading', { name: thing }).waitFor();
  });

  it('a neighbour offers his listing from the board', async () => {
    const listed = await callApi(teo, 'POST', '/api/items', {
      title: `${thing} tripod`,
      description: 'A surveying theodolite on its tripod, with a case.',
      category: 'tools',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'Engineering Quad',
      availableFrom: '2026-01-01',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    itemId = listed.item.id;
    await teo.goto('/asks');
    const card = teo.locator('li').filter({ has: teo.getByRole('heading', { name: thing, exact: true }) });
    await card.getByRole('button', { name: words.haveOne }).click();
    const dialog = teo.getByRole('dialog', { name: words.offerDialog });
    await dialog.getByRole('radio', { name: new RegExp(`${thing} tripod`) }).waitFor();
    await expectAccessible(teo);
    await teo.screenshot({ path: `/tmp/asks-offer-1280-${language}.png` });
    await dialog.getByRole('button', { name: words.offerThis }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the asker reserves from the offer on her ask’s days, the lender approves, and the ask closes', async () => {
    await ana.goto('/asks');
    const mine = ana.getByRole('region', { name: words.yourAsks });
    const reserve = mine.getByRole('link', { name: words.reserveFor });
    await reserve.waitFor();
    await expectAccessible(ana);
    await ana.screenshot({ path: `/tmp/asks-board-375-${language}.png`, fullPage: true });
    await ana.setViewportSize({ width: 1280, height: 800 });
    await ana.screenshot({ path: `/tmp/asks-board-1280-${language}.png`, fullPage: true });
    await ana.setViewportSize({ width: 375, height: 667 });
    await reserve.click();

    const dialog = ana.getByRole('dialog');
    await dialog.getByRole('button', { name: words.requestToBorrow }).click();
    await dialog.getByText(words.requestSent).first().waitFor();

    const reservations = await (await ana.request.get('/api/reservations')).json();
    const request = (reservations.reservations as { id: string; itemId: string; startDate: string }[]).find(
      (r) => r.itemId === itemId,
    );
    expect(request?.startDate).toBe(day(1));
    await callApi(teo, 'POST', `/api/reservations/${request!.id}/approve`, {});

    await ana.goto('/asks');
    await ana.getByRole('region', { name: words.yourAsks }).getByText(words.closed).waitFor();
    await ana.screenshot({ path: `/tmp/asks-closed-375-${language}.png`, fullPage: true });
  });
});

// Reporting an ask, on phones: Teo reaches the board from the bottom bar's "Asked for" and reports
// Ana's ask from its card; Morgan finds it in /admin and hides it, with a note; it leaves the board.
describe('a reported ask, hidden by a moderator (375 px)', () => {
  journeySteps();
  const PHONE = { width: 375, height: 667 };
  const tag = `${Date.now().toString(36)}rep`;
  const title = `Fog machine ${tag}`;
  const why = 'Asks to borrow something the dorm rules forbid.';
  let ana: Page;
  let teo: Page;
  let moderator: Page;

  beforeAll(async () => {
    [ana, teo, moderator] = await Promise.all([
      newStudent(b, { name: 'Ana', surname: 'Reported', tag, viewport: PHONE, payouts: false }),
      newStudent(b, { name: 'Teo', surname: 'Reports', tag, viewport: PHONE, payouts: false }),
      b.newPage(PHONE),
    ]);
    await signIn(moderator, 'moderator@stanford.edu');
    await callApi(ana, 'POST', '/api/asks', {
      title,
      category: 'electronics',
      note: 'For a party on Friday.',
      startDate: day(1),
      endDate: day(2),
      maxPrice: '0',
    });
  });

  it('"Asked for" in the bottom bar opens the board, where a student reports the ask', async () => {
    await teo.goto('/');
    await teo.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Asked for' }).click();
    await teo.waitForURL((url) => url.pathname === '/asks');
    const card = teo.locator('li').filter({ has: teo.getByRole('heading', { name: title, exact: true }) });
    const report = card.getByRole('button', { name: `Report “${title}”` });
    await report.waitFor();
    await teo.setViewportSize({ width: 1280, height: 900 });
    await teo.screenshot({ path: '/tmp/asks-report-1280.png' });
    await teo.setViewportSize(PHONE);
    await report.click();
    const dialog = teo.getByRole('dialog', { name: 'Report Ask' });
    await dialog.getByLabel('Reason').selectOption({ label: 'Inappropriate Content' });
    await dialog.getByLabel('Description').fill(why);
    await expectAccessible(teo);
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await teo.getByText('Report submitted successfully', { exact: true }).waitFor();
    await card.getByText('You reported this ask. Our team is reviewing it.').waitFor();
    await teo.screenshot({ path: '/tmp/asks-reported-375.png', fullPage: true });
  });

  it('a moderator sees the ask in /admin and hides it with a note', async () => {
    await moderator.goto('/admin');
    await moderator.getByRole('link', { name: new RegExp(title) }).click();
    const panel = moderator.getByRole('region', { name: 'Selected report' });
    await panel.getByRole('heading', { name: `${title} · asked by Ana`, level: 2 }).waitFor();
    await panel.getByText(why, { exact: true }).waitFor();
    expect(await panel.getByRole('link', { name: new RegExp(title) }).getAttribute('href')).toBe('/asks');
    await panel.getByLabel('Moderator notes').fill('Not something one may lend on campus.');
    await panel.getByRole('button', { name: 'Hide ask' }).click();
    const confirm = moderator.getByRole('alertdialog', { name: `Hide “${title}”?` });
    await confirm.waitFor();
    await expectAccessible(moderator);
    await confirm.getByRole('button', { name: 'Hide ask' }).click();
    await moderator.getByText('Ask hidden', { exact: true }).waitFor();
    await panel.getByText('Hidden since', { exact: false }).waitFor();
    await panel.getByText('hid the ask', { exact: false }).waitFor();
    await panel.getByText('Not something one may lend on campus.', { exact: true }).waitFor();
    await expectAccessible(moderator);
    await moderator.screenshot({ path: '/tmp/admin-ask-375.png', fullPage: true });
    await moderator.setViewportSize({ width: 1280, height: 900 });
    await moderator.getByText('Ask hidden', { exact: true }).waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Add note' }).waitFor();
    await moderator.screenshot({ path: '/tmp/admin-ask-1280.png' });
  });

  it('the hidden ask is gone from the board, and a visitor is asked to sign in', async () => {
    await teo.goto('/asks');
    await teo.getByRole('heading', { name: 'Asked on your campus' }).waitFor();
    await teo.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    expect(await teo.getByRole('heading', { name: title, exact: true }).count()).toBe(0);
    const visitor = await b.newPage(PHONE);
    await visitor.goto('/asks');
    await visitor.getByRole('heading', { name: 'Authentication Required' }).waitFor();
    expect(await visitor.getByRole('button', { name: /^Report/ }).count()).toBe(0);
  });

  it('the moderator unhides it, and it is back on the board', async () => {
    await moderator.setViewportSize(PHONE);
    const panel = moderator.getByRole('region', { name: 'Selected report' });
    await panel.getByRole('button', { name: 'Unhide ask' }).click();
    await moderator.getByText('Ask visible again', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Hide ask' }).waitFor();
    await expectAccessible(moderator);
    await teo.goto('/asks');
    await teo.getByRole('heading', { name: title, exact: true }).waitFor();
  });
});
