import { i18n } from '@lingui/core';
import type { Locale as DateFnsLocale } from 'date-fns';
import {
  DEFAULT_LOCALE,
  INTL_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  prepareI18n,
} from '#shared/i18n.ts';

// The browser's side of English and Spanish (decision 035): one Lingui instance for the whole app (the
// `t` macro and <Trans> both read it). The page arrives with <html lang> set by the server to the
// language it chose (the visitor's saved choice, else the account's, else the browser's), and the app
// starts in that language, so the server's HTML and the first render agree. Spanish messages are loaded
// only by those who read Spanish.

prepareI18n(i18n);
i18n.load(DEFAULT_LOCALE, {});
i18n.activate(DEFAULT_LOCALE, [INTL_LOCALE[DEFAULT_LOCALE]]);

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

const loaded = new Set<Locale>([DEFAULT_LOCALE]);

let spanishDates: DateFnsLocale | undefined;

/**
 * date-fns' words for the active language (month and day names), for the few places that format with
 * date-fns: undefined for English (its default). Loaded with the Spanish catalogue, not before.
 */
export function dateFnsLocale(): DateFnsLocale | undefined {
  return i18n.locale === 'es' ? spanishDates : undefined;
}

// zod's own messages (a field of the wrong type) in each language; Spanish's come with its catalogue.
// Set on zod's global settings object directly (as lib/zod-without-eval.ts does): importing zod here
// would put all of it into the first script every page loads.
type ZodLocale = () => { localeError: unknown };
function setZodLocale(locale: ZodLocale): void {
  const scope = globalThis as typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };
  scope.__zod_globalConfig ??= {};
  Object.assign(scope.__zod_globalConfig, locale());
}
const zodLocales: Partial<Record<Locale, ZodLocale>> = {};

async function loadLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale) && zodLocales[locale]) return;
  const [{ messages }, zodSpanish, zodEnglish, dateFns] = await Promise.all([
    import('#shared/locales/es-browser.ts'),
    import('zod/v4/locales/es.js'),
    import('zod/v4/locales/en.js'),
    import('date-fns/locale/es'),
  ]);
  i18n.load('es', messages);
  spanishDates = dateFns.es;
  zodLocales.es = zodSpanish.default;
  zodLocales.en = zodEnglish.default;
  loaded.add('es');
}

/** Makes `locale` the app's language: its messages are fetched if they are not here yet. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (locale !== DEFAULT_LOCALE || zodLocales.en) await loadLocale(locale);
  // Numbers inside messages (a plural's #) are written as the rest of the app writes them: es-US
  // groups thousands with a comma, like formatMoney, where plain 'es' would write 12.345.
  i18n.activate(locale, [INTL_LOCALE[locale]]);
  const zodLocale = zodLocales[locale];
  if (zodLocale) setZodLocale(zodLocale);
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
