import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, inject } from 'vitest';
import { campusToday } from '../../src/shared/calendar.ts';
import { QUERY_STATE_ID } from '../../src/web/lib/query-state.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { mailsTo, tokenOf, verificationLinkIn } from '../helpers/outbox.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';

export const DEMO_PASSWORD = 'campusloop';

/**
 * One Chromium for every journey file of a worker: the e2e config does not isolate files, so this
 * module, and the browser, outlive a file. Starting Chromium cost about a second a file, more on a
 * loaded machine (decision 041). Playwright kills the browser when the worker exits.
 */
let workerBrowser: Promise<Browser> | undefined;
function sharedBrowser(): Promise<Browser> {
  if (!workerBrowser) {
    const launching = chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    workerBrowser = launching;
    launching.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (workerBrowser === launching) workerBrowser = undefined;
        }),
      () => {
        if (workerBrowser === launching) workerBrowser = undefined;
      },
    );
  }
  return workerBrowser;
}

/**
 * The worker's browser for one journey file; each person in a journey gets their own context (cookies).
 * Every context the file opened, its own or a test's, is closed after it, so no page of one file (a
 * live socket, a timer) runs on into the next.
 */
export function setupBrowser() {
  const ctx = { baseURL: inject('baseURL') } as { browser: Browser; baseURL: string; errors: string[] };
  let before = new Set<BrowserContext>();
  beforeAll(async () => {
    ctx.browser = await sharedBrowser();
    before = new Set(ctx.browser.contexts());
  });
  afterAll(async () => {
    const opened = ctx.browser?.contexts().filter((context) => !before.has(context)) ?? [];
    await Promise.all(opened.map((context) => context.close()));
  });
  return {
    get baseURL() {
      return ctx.baseURL;
    },
    /**
     * A fresh person at a phone-sized or desktop viewport; page errors fail the journey. `language`:
     * a browser that asks for that language (Accept-Language and navigator.language).
     */
    async newPage(
      viewport: { width: number; height: number } = { width: 1280, height: 900 },
      language?: 'es',
    ): Promise<Page> {
      const context = await ctx.browser.newContext({
        baseURL: ctx.baseURL,
        viewport,
        ...(language ? { locale: `${language}-US`, extraHTTPHeaders: { 'accept-language': language } } : {}),
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => {
        throw error;
      });
      return page;
    },
  };
}

/**
 * The minified build of the axe-core that AxeBuilder depends on: by default it injects the readable
 * one (1.3 MB) into the page at every check.
 */
const axeBuilderRequire = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = readFileSync(axeBuilderRequire.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Fails on serious or critical axe violations of the page as it stands.
 * Legacy mode runs axe once in the page itself; the default opens a blank page in the context and
 * injects axe twice to merge per-frame results, which only cross-origin frames need and the app has
 * none (Stripe's card frames appear only with Stripe keys, never in these journeys). Only violations
 * are collected: passes and incomplete results are not read. Together about three times faster
 * (4.7 s → 1.5 s a page on a loaded 2-core machine), the same violations.
 */
export async function expectAccessible(page: Page) {
  // A dialog or toast that is still fading in has text at part of its opacity: axe measured a button's
  // contrast mid-animation on a loaded machine. Wait for every finite animation to end first (spinners
  // and skeleton pulses run forever and are left alone). A change that lands while axe runs (a button
  // behind a dialog changing its colours once a request is answered) would start a transition after
  // that wait, so the check also runs with the reduced motion the app honours (app.css): every change
  // is then at its end at once, and what axe measures is what the page shows.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page, axeSource: AXE_SOURCE })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze()
    .finally(() => page.emulateMedia({ reducedMotion: null }));
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 300)} ${n.failureSummary ?? ''}`)
          .join(', ')})`,
    );
  // The violations in the message itself: an assertion's diff of a long list is cut short.
  expect(bad, `axe on ${page.url()}:\n${bad.join('\n')}`).toEqual([]);
}

/**
 * Waits until the app's script has taken over a page the server rendered (it reads and removes the
 * page's data block just before hydrating; React replays a press that comes after). A press on one of
 * its buttons before that is lost, as a student's would be.
 */
export async function scriptRunning(page: Page) {
  await page.waitForFunction((id) => !document.getElementById(id), QUERY_STATE_ID);
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('University Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Marks the tests of the enclosing describe as steps of one journey that build on each other: once a
 * step fails, the later ones are skipped instead of failing for the same reason.
 */
export function journeySteps() {
  let failed = false;
  beforeEach(({ skip, onTestFailed }) => {
    if (failed) skip('an earlier step of this journey failed');
    onTestFailed(() => {
      failed = true;
    });
  });
}

/**
 * Opens the newest verification link sent to `email` in the page's context, as the e-mail's reader would
 * (decision 023: registering signs nobody in; the link does). `after`: mails to the address before it.
 */
export async function verifyFromOutbox(page: Page, outboxDir: string, email: string, after = 0) {
  const mails = await mailsTo(outboxDir, email, after);
  const mail = mails.at(-1);
  if (!mail || mails.length <= after) throw new Error(`no verification e-mail to ${email}`);
  const verified = await page.request.post('/api/auth/verify-email', {
    headers: { origin: new URL(page.url() === 'about:blank' ? inject('baseURL') : page.url()).origin },
    data: { token: tokenOf(verificationLinkIn(mail)) },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}

/**
 * The borrower's "Item Returned" on a card: before the booking's last day it first asks "Return it
 * early?" (decision 034), and the journey agrees; on or after it, it goes straight on.
 */
export async function pressItemReturned(page: Page, card: Locator | Page = page) {
  await card.getByRole('button', { name: 'Item Returned' }).click();
  const early = page.getByRole('alertdialog', { name: 'Return it early?' });
  await early
    .or(card.getByText('Returned', { exact: true }).first())
    .first()
    .waitFor();
  if (await early.isVisible()) await early.getByRole('button', { name: 'Return Early' }).click();
}

/** A campus day `n` days from today (the server's campus time zone, Los Angeles by default). */
export function campusDay(n: number): string {
  const d = new Date(`${campusToday('America/Los_Angeles').date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * A journey's own Stanford student, registered through the API and signed in by the verification link
 * on a fresh page: journeys share one server, so each makes the people it needs ("Lena" becomes
 * lena_<tag>, full name "Lena <surname>").
 */
export async function newStudent(
  b: ReturnType<typeof setupBrowser>,
  who: {
    name: string;
    surname: string;
    tag: string;
    viewport?: { width: number; height: number };
    language?: 'es';
    /** Whether they set up payouts (approving a paid request needs them); most journeys' lenders have. */
    payouts?: boolean;
  },
): Promise<Page> {
  const page = await b.newPage(who.viewport, who.language);
  await page.goto('/about');
  const handle = `${who.name.toLowerCase()}_${who.tag}`;
  const email = `${handle.replace('_', '.')}@stanford.edu`;
  const registered = await page.request.post('/api/auth/register', {
    headers: { origin: b.baseURL },
    data: {
      email,
      username: handle,
      password: `${who.surname.toLowerCase()}-journey`,
      fullName: `${who.name} ${who.surname}`,
      campus: 'stanford.edu',
    },
  });
  expect(registered.status(), await registered.text()).toBe(202);
  await verifyFromOutbox(page, inject('outboxDir'), email);
  if (who.payouts ?? true) await setUpPayouts(page);
  return page;
}

/**
 * The student sets up payouts with the test provider, as its onboarding page's "Complete onboarding"
 * does: an account and its link, then the page's answer for that account.
 */
export async function setUpPayouts(page: Page): Promise<void> {
  const { url } = (await callApi(page, 'POST', '/api/payouts/onboarding', {})) as { url: string };
  const accountId = new URL(url, page.url()).searchParams.get('account');
  expect(accountId, url).toBeTruthy();
  await callApi(page, 'POST', '/api/payouts/test/onboarding', { accountId, outcome: 'complete' });
}

/** A same-origin API call from a page's session that must succeed; answers its JSON. */
export async function callApi(page: Page, method: 'POST' | 'PUT', path: string, data: unknown) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.fetch(path, { method, headers: { origin }, data });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return response.json();
}

/**
 * `lender` lists an item at $4 a day with no deposit, and `borrower` asks for it from `startDate` to
 * `endDate` as the Reserve dialog does (the payment intent, the test card, then the request). Answers
 * the item's id and the request's.
 */
export async function paidRequestThroughApi(
  lender: Page,
  borrower: Page,
  item: { title: string; description: string; cancellationPolicy?: 'flexible' | 'moderate' | 'strict' },
  dates: { startDate: string; endDate: string },
): Promise<{ itemId: string; reservationId: string }> {
  const listed = await callApi(lender, 'POST', '/api/items', {
    ...item,
    category: 'electronics',
    condition: 'good',
    pickupMethod: 'meetup',
    pickupLocation: 'White Plaza',
    rentalPrice: '4.00',
    rentalPeriod: 'day',
    availableFrom: '2026-01-01',
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    images: [],
  });
  const itemId = listed.item.id as string;
  const intent = await callApi(borrower, 'POST', '/api/create-payment-intent', {
    itemId,
    ...dates,
    depositAmount: '0',
    rentalAmount: '8.00',
  });
  const { expMonth, expYear } = cardExpiry(12);
  await callApi(borrower, 'POST', '/api/payments/test/confirm', {
    paymentIntentId: intent.paymentIntentId,
    card: { number: '4242 4242 4242 4242', expMonth, expYear, cvc: '123' },
  });
  const requested = await callApi(borrower, 'POST', '/api/reservations', {
    itemId,
    ...dates,
    stripePaymentIntentId: intent.paymentIntentId,
  });
  return { itemId, reservationId: requested.reservation.id as string };
}
