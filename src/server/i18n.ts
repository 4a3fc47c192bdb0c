import { i18n, type MessageDescriptor } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { en as zodEnglish, es as zodSpanish } from 'zod/locales';
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  localeFromAcceptLanguage,
  prepareI18n,
} from '../shared/i18n.ts';
import { messages as spanish } from '../shared/locales/es.ts';

// The server's side of English and Spanish (decision 035). Everything the server writes for people (error
// and validation messages, notifications, e-mails) is written through Lingui in the reader's language:
// the request's for an answer, the recipient's for a notification or an e-mail.
//
// The shared code (format.ts, the zod schemas' messages) reads Lingui's one global instance, so a message
// is written inside `inLocale`, which makes that instance speak the language for one synchronous call
// and puts English back. JavaScript runs one call at a time, so no other request can see the switch.

// The server compiles any message that reaches it uncompiled with Lingui's full ICU compiler, once each.
const compiled = new Map<string, ReturnType<typeof compileMessage>>();
prepareI18n(i18n, (message) => {
  let result = compiled.get(message);
  if (result === undefined) {
    result = compileMessage(message);
    compiled.set(message, result);
  }
  return result;
});
i18n.load({ en: {}, es: spanish });
i18n.activate(DEFAULT_LOCALE);

const ZOD_LOCALES: Record<Locale, () => { localeError: z.core.$ZodErrorMap }> = {
  en: zodEnglish,
  es: zodSpanish,
};
z.config(ZOD_LOCALES[DEFAULT_LOCALE]());

/** Runs `write` (synchronous: a Promise would outlive the switch) with Lingui and zod in `locale`. */
export function inLocale<T>(locale: Locale, write: () => T): T {
  if (locale === i18n.locale) return write();
  const previous = isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
  i18n.activate(locale);
  z.config(ZOD_LOCALES[locale]());
  try {
    return write();
  } finally {
    i18n.activate(previous);
    z.config(ZOD_LOCALES[previous]());
  }
}

/**
 * A notification's words, as `msg` descriptors (written in the recipient's language when it is sent).
 * Here rather than in the notifications feature: wording modules outside the features use it too.
 */
export interface NoticeText {
  title: MessageDescriptor;
  message: MessageDescriptor;
}

/** A message (a `msg` descriptor, or text already written) in `locale`. */
export function translate(locale: Locale, message: MessageDescriptor | string): string {
  return typeof message === 'string' ? message : inLocale(locale, () => i18n._(message));
}

/**
 * The language to answer a request in: the visitor's choice (the language switch's cookie), else the
 * signed-in person's saved language, else the best of the browser's Accept-Language, else English.
 */
export function requestLocale(request: FastifyRequest): Locale {
  const chosen = request.cookies?.[LOCALE_COOKIE];
  if (isLocale(chosen)) return chosen;
  const saved = request.user?.locale;
  if (isLocale(saved)) return saved;
  return localeFromAcceptLanguage(request.headers['accept-language']);
}

export { i18n };
