import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';

export const DEMO_PASSWORD = 'campusloop';

/** One browser per journey file; each person in a journey gets their own context (cookies). */
export function setupBrowser() {
  const ctx = { baseURL: inject('baseURL') } as { browser: Browser; baseURL: string; errors: string[] };
  beforeAll(async () => {
    ctx.browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await ctx.browser?.close();
  });
  return {
    get baseURL() {
      return ctx.baseURL;
    },
    /** A fresh person at a phone-sized or desktop viewport; page errors fail the journey. */
    async newPage(viewport: { width: number; height: number } = { width: 1280, height: 900 }): Promise<Page> {
      const context = await ctx.browser.newContext({ baseURL: ctx.baseURL, viewport });
      const page = await context.newPage();
      page.on('pageerror', (error) => {
        throw error;
      });
      return page;
    },
  };
}

/** Fails on serious or critical axe violations of the page as it stands. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${page.url()}`,
  ).toEqual([]);
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('University Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}
