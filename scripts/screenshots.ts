import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/browser.ts';
import { startServer, stopServer } from '../tests/helpers/server-process.ts';

// `npm run screenshots`: the README's pictures. Starts the built app on a fresh embedded database with
// the demo campus (as the browser journeys do, tests/e2e/server-setup.ts), and takes Home, an item, its
// reserve dialog and a chat at phone size into docs/screenshots/. Each waits until the page shows its
// content: no loading placeholder, every photo in view decoded.

const OUT = path.resolve('docs/screenshots');
const PHONE = { width: 375, height: 812 };
const ITEM = 'Cordless drill with bit set';

/** Until nothing is loading: no skeleton, no spinner, and every image in the viewport decoded. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => {
    if (document.querySelector('.animate-pulse, .animate-spin')) return false;
    return [...document.images].every((image) => {
      const box = image.getBoundingClientRect();
      const inView = box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
      return !inView || (image.complete && image.naturalWidth > 0);
    });
  });
  // Fonts and the last layout: a photo that just decoded may still move the text below it.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
}

async function shoot(page: Page, name: string) {
  // A toast ('Chat started') would cover the page: closed, as a person would.
  const toasts = page.getByRole('button', { name: 'Close notification' });
  for (const close of await toasts.all()) await close.click();
  await page.waitForFunction(() => !document.querySelector('[aria-label="Close notification"]'));
  await settled(page);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`  ${path.relative(process.cwd(), file)}`);
}

async function signedIn(browser: Browser, baseURL: string, email: string): Promise<Page> {
  // The campus's clock, as a Stanford student's phone would show the chat's times.
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE,
    deviceScaleFactor: 1,
    timezoneId: 'America/Los_Angeles',
  });
  const page = await context.newPage();
  // The first requests of a fresh server on a busy machine can take a while.
  page.setDefaultTimeout(90_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto('/login');
  await page.getByLabel('University Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  return page;
}

if (!existsSync('dist/web/index.html')) {
  // Without the built app the server answers only the API, and every page would be a 404.
  console.error('No built web app in dist/web: run `npm run screenshots`, which builds it first.');
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-screenshots-'));
mkdirSync(OUT, { recursive: true });
console.log('Starting CampusLoop with the demo campus (the first start takes a minute)…');
const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' }, 180_000);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  // Jordan borrows Maya's drill; both are demo accounts on the Stanford campus.
  const jordan = await signedIn(browser, server.url, 'jordan.lee@stanford.edu');
  const maya = await signedIn(browser, server.url, 'maya.chen@stanford.edu');

  await jordan.getByRole('heading', { level: 1 }).first().waitFor();
  await shoot(jordan, 'home');

  await jordan.goto(`/browse?q=${encodeURIComponent(ITEM)}`);
  await jordan
    .getByRole('link', { name: new RegExp(ITEM) })
    .first()
    .click();
  await jordan.getByRole('heading', { name: ITEM, level: 1 }).waitFor();
  await shoot(jordan, 'item');

  await jordan.getByRole('button', { name: 'Reserve Item' }).click();
  await jordan.getByRole('dialog').getByText('Total').first().waitFor();
  await shoot(jordan, 'reserve');
  await jordan.keyboard.press('Escape');

  await jordan.getByRole('button', { name: 'Chat with Seller' }).click();
  await jordan.waitForURL(/\/chat\?conversation=/);
  const messages = jordan.getByRole('list', { name: 'Messages' });
  const send = async (page: Page, text: string) => {
    const box = page.getByLabel('Message', { exact: true });
    await box.fill(text);
    await box.press('Enter');
  };
  await send(jordan, 'Hi Maya! Is the drill free this Saturday? I am putting up shelves.');
  await messages.getByText('I am putting up shelves.', { exact: false }).waitFor();
  await maya.goto('/chat');
  await maya.getByText('Jordan Lee').first().click();
  await send(maya, 'Yes, it is! The bits are in the case. Meet at the Main Quad at 10?');
  await messages.getByText('Meet at the Main Quad at 10?', { exact: false }).waitFor();
  await send(jordan, 'Perfect, see you there. I will send the request now.');
  await messages.getByText('I will send the request now.', { exact: false }).waitFor();
  await shoot(jordan, 'chat');
} finally {
  await browser.close();
  await stopServer(server.process);
  rmSync(dataDir, { recursive: true, force: true });
}
