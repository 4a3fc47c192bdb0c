import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import { CALENDAR_YEARS } from '../constants.ts';
import '../i18n.ts';

// Building blocks of the fields every form and route shares (issue 12): text that the database can
// store and people can read, and calendar days that exist. The API also refuses the same characters
// in any request before a route sees it (plugins/input-guard.ts), with these same messages.

// Issue 19: every message is written when it is shown, in the language active then (the page's in the
// browser; on the server the caller's, plugins/errors.ts). A zod message is a function for that reason
// (`{ error: () => t\`…\` }`): a plain string would be written once, in English, when the module loads.

/** A validation message: text (written as is) or a function that writes it in the active language. */
export type Say = string | (() => string);

/**
 * Text of a message that follows the active language: `set` is called now and again whenever the
 * language changes (the browser's switch; on the server, each message written in a caller's language).
 * For constants other modules show as text; the server throws the descriptor itself.
 */
export function followLanguage(message: MessageDescriptor, set: (text: string) => void): void {
  const write = () => set(i18n._(message));
  write();
  i18n.on('change', write);
}

export const controlCharacterMessage = msg`Remove the invisible control character from this text.`;
export const brokenCharacterMessage = msg`Remove the broken character from this text (it can come from pasting); then try again.`;
/** The two messages above in the active language. */
export let CONTROL_CHARACTER_MESSAGE = '';
export let BROKEN_CHARACTER_MESSAGE = '';
followLanguage(controlCharacterMessage, (text) => {
  CONTROL_CHARACTER_MESSAGE = text;
});
followLanguage(brokenCharacterMessage, (text) => {
  BROKEN_CHARACTER_MESSAGE = text;
});

/**
 * C0 controls but tab, line feed and carriage return, DEL and the C1 controls. PostgreSQL cannot
 * store NUL at all (a 500 before this rule); the others are invisible, and nobody types them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this rule's whole job.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Half of a UTF-16 surrogate pair on its own: no character, and UTF-8 cannot encode it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a piece of text (a message to write in the reader's language); undefined when nothing is. */
export function textProblemMessage(text: string): MessageDescriptor | undefined {
  if (CONTROL_CHARACTER.test(text)) return controlCharacterMessage;
  if (LONE_SURROGATE.test(text)) return brokenCharacterMessage;
  return undefined;
}

/** What is wrong with a piece of text, in the words a form shows (the active language); undefined when nothing is. */
export function textProblem(text: string): string | undefined {
  const problem = textProblemMessage(text);
  return problem && i18n._(problem);
}

const controlCharacterError = () => i18n._(controlCharacterMessage);
const brokenCharacterError = () => i18n._(brokenCharacterMessage);

/**
 * A string that holds only characters people can read and the database can store. Chain the field's
 * own rules after it (`plainText(() => t`Title is required`).trim().min(1, …)`); this rule's message comes first.
 */
export function plainText(error?: Say) {
  return z
    .string(error === undefined ? undefined : { error })
    .refine((v) => !CONTROL_CHARACTER.test(v), { error: controlCharacterError })
    .refine((v) => !LONE_SURROGATE.test(v), { error: brokenCharacterError });
}

const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A real calendar day 'YYYY-MM-DD' within CALENDAR_YEARS: read as a date and written back, it must be
 * the same text (2026-02-30 becomes 2026-03-02, so it is refused; the database would refuse it with a 500).
 */
export function isCalendarDay(value: string): boolean {
  const parts = DAY_SHAPE.exec(value);
  if (!parts) return false;
  const year = Number(parts[1]);
  if (year < CALENDAR_YEARS.first || year > CALENDAR_YEARS.last) return false;
  const date = new Date(Date.UTC(year, Number(parts[2]) - 1, Number(parts[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** Runs a refinement only when the format check before it passed: one message, not two. */
const afterFormat = (message: Say) => ({
  error: message,
  when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0,
});

/** A calendar day field ('YYYY-MM-DD'), with one message for every way it can be wrong. */
export function calendarDay(message: Say) {
  return z.iso.date({ error: message }).refine(isCalendarDay, afterFormat(message));
}

/**
 * A calendar day that may also come as an ISO instant or a Date (spec §5: the server accepts a string
 * or a date; an instant counts by its calendar day), answered as 'YYYY-MM-DD'.
 */
export function calendarDayOf(message: Say) {
  return (
    z
      // The format says, to readers of the JSON Schema (the API fuzz test), that a day belongs here.
      .union([z.string().max(64).meta({ format: 'date' }), z.date()], { error: message })
      .transform((v) => {
        if (typeof v === 'string') return v.slice(0, 10);
        return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
      })
      .refine(isCalendarDay, { error: message })
  );
}

/** An instant (ISO 8601 with an offset) on a real day within CALENDAR_YEARS. */
export function instant(message: Say) {
  return z.iso
    .datetime({ offset: true, error: message })
    .refine((v) => isCalendarDay(v.slice(0, 10)) && !Number.isNaN(Date.parse(v)), afterFormat(message));
}
