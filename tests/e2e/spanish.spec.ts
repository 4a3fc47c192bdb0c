import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueEntries } from '../../scripts/i18n/untranslated.ts';
import { callApi, newStudent, setupBrowser } from './helpers.ts';

// Every page in Spanish at phone size, with no English left. A browser that asks for
// Spanish (Accept-Language: es) walks every route: as a visitor, as a new Spanish-speaking student, as
// a demo student with borrows, listings and chats, and as the moderator. On each page every piece of
// text (and every label a screen reader reads, and the tab title) is compared with the catalogues'
// English: a message that has its Spanish but shows in English is a string the page did not translate.

const b = setupBrowser();
const PHONE = { width: 375, height: 812 };

/** The catalogues' English whose Spanish differs: what must not show on a Spanish page. */
function englishOnlyMessages() {
  const dir = path.resolve('src/shared/locales');
  const english = new Map(catalogueEntries(dir, 'en').map((e) => [e.msgid, e.msgstr || e.msgid]));
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const { msgid, msgstr } of catalogueEntries(dir, 'es')) {
    // Explicit ids ('format.free') keep their English in the English catalogue.
    const source = /^[a-z]+(\.[a-z-]+)+$/.test(msgid) ? (english.get(msgid) ?? msgid) : msgid;
    if (!msgstr.trim() || msgstr === source) continue;
    // Plurals and selects read differently in every language; tagged messages span several elements.
    if (/\{\w+, (plural|select|selectordinal),/.test(source) || /<\d+>/.test(source)) continue;
    if (/\{\w+\}/.test(source)) {
      const pieces = source.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      // Only a pattern with enough fixed words to be this message and not some person's text.
      if (pieces.join('').replace(/\W/g, '').length >= 12)
        patterns.push(new RegExp(`^${pieces.join('.+?')}$`));
    } else if (/\p{L}{2}/u.test(source)) {
      exact.add(source);
    }
  }
  return { exact, patterns };
}

/** Each element's own text, the labels people read or hear, and the tab title, as shown. */
function textsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node as HTMLElement;
      if (element.closest('script, style, [hidden], [aria-hidden="true"] svg')) continue;
      const own = [...element.childNodes]
        .filter((child) => child.nodeType === Node.TEXT_NODE)
        .map((child) => child.textContent ?? '')
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
      if (own) texts.push(own);
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value.trim());
      }
    }
    return texts;
  });
}

async function settled(page: Page, route: string) {
  await page.goto(route);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // Loading states say "Cargando…" (or show skeletons) until their data is in.
  await expect
    .poll(async () => page.locator('[aria-busy="true"], .animate-pulse').count(), { timeout: 30_000 })
    .toBe(0);
}

let messages: ReturnType<typeof englishOnlyMessages>;
beforeAll(() => {
  messages = englishOnlyMessages();
});

async function expectSpanish(page: Page, routes: string[]) {
  const found: string[] = [];
  for (const route of routes) {
    await settled(page, route);
    expect(await page.evaluate(() => document.documentElement.lang), route).toBe('es');
    for (const text of await textsOf(page)) {
      if (messages.exact.has(text) || messages.patterns.some((p) => p.test(text)))
        found.push(`${route}: ${text}`);
    }
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${route} fits 375 px`,
    ).toBeLessThanOrEqual(PHONE.width);
  }
  expect(found, 'English left on Spanish pages').toEqual([]);
}

/** What the language switch does for a visitor: the cookie the server reads. */
async function chooseSpanish(page: Page) {
  await page.context().addCookies([{ name: 'campusloop_lang', value: 'es', url: b.baseURL }]);
  await page.goto('/about');
}

describe('every page in Spanish at 375 px', () => {
  it('the visitor pages', async () => {
    const page = await b.newPage(PHONE, 'es');
    await page.goto('/browse');
    const firstItem = await page.locator('a[href^="/item/"]').first().getAttribute('href');
    await expectSpanish(page, [
      '/',
      '/browse',
      firstItem!,
      '/impact',
      '/about',
      '/help',
      '/safety',
      '/terms',
      '/privacy',
      '/partners',
      '/contact',
      '/stories',
      '/login',
      '/register',
      '/forgot-password',
      '/reset-password?token=not-a-real-token',
      '/verify-email?token=not-a-real-token',
      '/no-such-page',
    ]);
    await page.screenshot({ path: '/tmp/shots/es-home.png' }).catch(() => undefined);
    await page.context().close();
  });

  it("a new Spanish-speaking student's pages, and their account speaks Spanish", async () => {
    const page = await newStudent(b, {
      name: 'Lucia',
      surname: 'Moreno',
      tag: 'es',
      viewport: PHONE,
      language: 'es',
    });
    const me = await (await page.request.get('/api/auth/me')).json();
    expect(me.user.locale).toBe('es');
    await expectSpanish(page, [
      '/notifications',
      '/reservations',
      '/chat',
      '/list-item',
      '/settings',
      '/settings/data',
      '/payment-methods',
      '/billing-history',
      '/profile',
    ]);
    // The welcome notification was written in Spanish for her.
    await page.goto('/notifications');
    await expect.poll(() => page.getByText(/Bienvenid[oa]/).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a demo student with borrows, listings and chats, and the moderator', async () => {
    // Their accounts say English (other journeys read them in English): the switch's cookie makes
    // this browser Spanish without changing the account.
    const page = await b.newPage(PHONE, 'es');
    await chooseSpanish(page);
    await callApi(page, 'POST', '/api/auth/login', {
      email: 'diego.ramirez@stanford.edu',
      password: 'campusloop',
    });
    await settled(page, '/profile');
    const ownItem = await page.locator('main a[href^="/item/"]').first().getAttribute('href');
    expect(ownItem, 'Diego lends things').toBeTruthy();
    await expectSpanish(page, [
      '/reservations',
      '/chat',
      '/profile',
      ownItem!,
      ownItem!.replace('/item/', '/edit-item/'),
    ]);
    await page.context().close();

    const moderator = await b.newPage(PHONE, 'es');
    await chooseSpanish(moderator);
    await callApi(moderator, 'POST', '/api/auth/login', {
      email: 'moderator@stanford.edu',
      password: 'campusloop',
    });
    await expectSpanish(moderator, ['/admin', '/admin/claims', '/admin/payments']);
    await moderator.context().close();
  });
});
