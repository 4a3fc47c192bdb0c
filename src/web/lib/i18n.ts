import { i18n } from '@lingui/core';
import { z } from 'zod';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale, prepareI18n } from '#shared/i18n.ts';

// The browser's side of issue 19 item 2 (decision 035): one Lingui instance for the whole app (the
// `t` macro and <Trans> both read it). The page arrives with <html lang> set by the server to the
// language it chose (the visitor's saved choice, else the account's, else the browser's), and the app
// starts in that language, so the server's HTML and the first render agree. Spanish messages are loaded
// only by those who read Spanish.

prepareI18n(i18n);
i18n.load(DEFAULT_LOCALE, {});
i18n.activate(DEFAULT_LOCALE);

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

const loaded = new Set<Locale>([DEFAULT_LOCALE]);

// zod's own messages (a field of the wrong type) in each language; Spanish's come with its catalogue.
type ZodLocale = () => Parameters<typeof z.config>[0];
const zodLocales: Partial<Record<Locale, ZodLocale>> = {};

async function loadLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale) && zodLocales[locale]) return;
  const [{ messages }, zodSpanish, zodEnglish] = await Promise.all([
    import('#shared/locales/es.ts'),
    import('zod/v4/locales/es.js'),
    import('zod/v4/locales/en.js'),
  ]);
  i18n.load('es', messages);
  zodLocales.es = zodSpanish.default;
  zodLocales.en = zodEnglish.default;
  loaded.add('es');
}

/** Makes `locale` the app's language: its messages are fetched if they are not here yet. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (locale !== DEFAULT_LOCALE || zodLocales.en) await loadLocale(locale);
  i18n.activate(locale);
  const zodLocale = zodLocales[locale];
  if (zodLocale) z.config(zodLocale());
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** The language the server wrote the page in. */
export function pageLocale(): Locale {
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/** Remembers a visitor's choice for the server's next page (the account keeps a signed-in person's). */
export function rememberLocale(locale: Locale): void {
  // biome-ignore lint/suspicious/noDocumentCookie: one first-party preference cookie, read by the server.
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax`;
}

export { i18n };
