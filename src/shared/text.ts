import { i18n, type MessageDescriptor } from '@lingui/core';
import { formatDayLabel } from './format.ts';
import './i18n.ts';

// The shared modules' text, written in the language active when it is read: the page's in
// the browser; on the server the reader's (server/i18n.ts inLocale). These modules are also loaded by
// drizzle-kit (the database schema imports them) without the macro transform, so their messages are
// written in Lingui's plain form, `i18n._(/*i18n*/ { id, message })`, which `lingui extract` reads too.

/** A table whose values are written in the active language each time one is read. */
export function textTable<K extends string>(
  messages: Record<K, MessageDescriptor>,
): Readonly<Record<K, string>> {
  const table = {} as Record<K, string>;
  for (const key of Object.keys(messages) as K[]) {
    Object.defineProperty(table, key, { enumerable: true, get: () => i18n._(messages[key]) });
  }
  return Object.freeze(table);
}

/**
 * A value of a message that is written with the message, in the language the message is written in:
 * a descriptor made now (a server's error) may be written later in its reader's language, and a day
 * or a word inside it must follow. Only for a plain placeholder (`{day}`, not `{n, number}`): Lingui
 * adds it to the text, which calls its toString then. Typed as the text it turns into, so that it can
 * be a macro's placeholder.
 */
export function writtenLater(write: () => string): string {
  return { toString: write } as unknown as string;
}

/** A calendar day as the message that names it is written ('Mar 5', '5 mar'). */
export const dayLabel = (day: string) => writtenLater(() => formatDayLabel(day));
