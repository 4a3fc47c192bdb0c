import { msg } from '@lingui/core/macro';
import type { Locale } from '../../shared/i18n.ts';
import { translate } from '../i18n.ts';

// The web app's HTML in the reader's language (decision 035). The browser starts the app in the language of
// <html lang> (src/web/lib/i18n.ts), so the server's choice (requestLocale) is the page's; the head's
// words a search engine or a shared link shows are written in it too.

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `html` (index.html, or a page rendered from it) as a page in `locale`. */
export function inLanguage(html: string, locale: Locale, { head = true } = {}): string {
  let page = html.replace(/<html lang="[^"]*"/, `<html lang="${locale}"`);
  if (head && locale !== 'en') {
    const description = escapeHtml(
      translate(locale, msg`CampusLoop: borrow what you need, lend what you don't. Share. Save. Sustain.`),
    );
    page = page
      .replace(
        /<meta name="description" content="[^"]*"/,
        () => `<meta name="description" content="${description}"`,
      )
      .replace(
        /<title>CampusLoop · [^<]*<\/title>/,
        () => `<title>${escapeHtml(translate(locale, msg`CampusLoop · Share. Save. Sustain.`))}</title>`,
      );
  }
  return page;
}
