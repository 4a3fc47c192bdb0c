import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/browser.ts';

// Takes phone and desktop screenshots of pages of a running server, for looking at what we build:
//   npx tsx scripts/screenshots.ts http://localhost:5000 / /about /login
// Set LOGIN=email:password to take them signed in.

const [base = 'http://localhost:5000', ...pages] = process.argv.slice(2);
const out = process.env.OUT ?? 'screenshots';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (const [name, viewport] of [
  ['phone', { width: 375, height: 812 }],
  ['desktop', { width: 1280, height: 900 }],
] as const) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (process.env.LOGIN) {
    const [email, password] = process.env.LOGIN.split(':');
    await page.goto(`${base}/login`);
    await page.getByLabel('University Email').fill(email!);
    await page.getByLabel('Password', { exact: true }).fill(password!);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${base}/`);
  }
  for (const path of pages.length ? pages : ['/']) {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('networkidle');
    const file = `${out}/${name}${path.replaceAll('/', '_') || '_'}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL === '1' });
    console.log(file);
  }
  await context.close();
}
await browser.close();
