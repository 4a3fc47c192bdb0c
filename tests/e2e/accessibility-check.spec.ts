import { describe, expect, it } from 'vitest';
import { expectAccessible, setupBrowser } from './helpers.ts';

const b = setupBrowser();

// Every journey trusts expectAccessible to fail a page that people with a screen reader or low vision
// cannot use; this keeps the check honest as its settings are tuned for speed (helpers.ts).
describe('the accessibility check', () => {
  it('fails a page with an unlabelled image and text too faint to read', async () => {
    const page = await b.newPage();
    await page.goto('/about');
    await page.getByRole('heading', { name: 'How It Works', level: 1 }).waitFor();
    await expectAccessible(page);

    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      const image = document.createElement('img');
      image.src = '/favicon.svg';
      main.append(image);
      const faint = document.createElement('p');
      faint.textContent = 'Pick-up is at the library steps.';
      faint.style.cssText = 'color: #f4f4f4; background: #ffffff';
      main.append(faint);
    });
    const failure = await expectAccessible(page).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toContain('image-alt');
    expect(failure).toContain('color-contrast');
  });
});
