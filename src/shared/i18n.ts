import { i18n as globalI18n, type I18n, type MessageDescriptor, setupI18n } from '@lingui/core';

// Decision 035: the product speaks English and Spanish. The English text is written in
// the code through Lingui's macros and is the source; the Spanish lives in src/shared/locales/es/*.po,
// compiled to src/shared/locales/es/*.ts by `npm run i18n`. Both sides use this module: the browser for
// its pages, the server for its error messages, notifications and e-mails.

export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, as the language switch offers it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };

/** The cookie that remembers a visitor's choice (the account remembers a signed-in person's). */
export const LOCALE_COOKIE = 'campusloop_lang';

/** BCP 47 tags for Intl: dates, numbers and money are written as a US campus's readers expect. */
export const INTL_LOCALE: Record<Locale, string> = { en: 'en-US', es: 'es-US' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The best of our languages for an Accept-Language header ('es-MX,es;q=0.9,en;q=0.8' → 'es'): the
 * highest-weighted tag whose language we speak, else English.
 */
export function localeFromAcceptLanguage(header: string | undefined | null): Locale {
  if (!header) return DEFAULT_LOCALE;
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.slice(0, 512).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0];
    if (!isLocale(language)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { locale: language, q };
  }
  return best?.locale ?? DEFAULT_LOCALE;
}

/**
 * Messages reach the run time compiled: the macros' English at build time (scripts/lingui-macro.mjs),
 * the Spanish by `lingui compile`. What is left is the few descriptors written without a macro
 * (format.ts), which use plain `{name}` placeholders only; the browser needs no more than this, and the
 * full ICU compiler stays out of its first script (the server uses it, server/i18n.ts).
 */
export function compilePlaceholders(message: string): (string | string[])[] {
  return message
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((piece) => (/^\{\w+\}$/.test(piece) ? [piece.slice(1, -1)] : piece));
}

/** Prepares an instance (the global one) with a compiler for the messages not compiled ahead. */
export function prepareI18n(i18n: I18n, compile: (message: string) => unknown = compilePlaceholders): void {
  i18n.setMessagesCompiler(compile as never);
}

/** A Lingui instance of its own with the given catalogues loaded, active in `locale`. */
export function createI18n(locale: Locale, catalogues: Partial<Record<Locale, I18n['messages']>> = {}): I18n {
  const i18n = setupI18n();
  prepareI18n(i18n);
  for (const l of LOCALES) i18n.load(l, catalogues[l] ?? {});
  i18n.activate(locale);
  return i18n;
}

export type { MessageDescriptor };

// The shared instance speaks English until told otherwise, wherever this module is loaded (the
// browser activates the page's language at start, lib/i18n.ts; the server per message, server/i18n.ts).
if (!globalI18n.locale) {
  prepareI18n(globalI18n);
  globalI18n.load(DEFAULT_LOCALE, {});
  globalI18n.activate(DEFAULT_LOCALE);
}
