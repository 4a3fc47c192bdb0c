import { msg } from '@lingui/core/macro';
import type { Locale } from '#shared/i18n.ts';
import {
  EMAIL_KINDS,
  type EmailKind,
  type EmailPreference,
  type PreferenceInput,
} from '#shared/schemas/account.ts';
import { writtenLater } from '#shared/text.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../errors.ts';
import { i18n, translate } from '../../i18n.ts';
import * as queries from './queries.ts';

// Which e-mails and pushes a person wants, by kind: Account settings shows and changes
// them, senders ask before sending, the one-click unsubscribe turns one off. Only choices made are
// stored; a kind without a row takes its default from EMAIL_KINDS (push: on).

const kindOf = (kind: EmailKind) => EMAIL_KINDS.find((k) => k.kind === kind)!;

export const preferenceService = {
  /** Every kind with the person's choice, its name and description written in `locale`. */
  async list(db: Db, userId: string, locale: Locale): Promise<EmailPreference[]> {
    const chosen = new Map((await queries.listPreferences(db, userId)).map((row) => [row.kind, row]));
    return EMAIL_KINDS.map(({ kind, label, description, required, byDefault, push }) => ({
      kind,
      label: translate(locale, label),
      description: translate(locale, description),
      required,
      email: required ? true : (chosen.get(kind)?.email ?? byDefault),
      push: push ? (chosen.get(kind)?.push ?? true) : null,
    }));
  },

  async set(db: Db, userId: string, input: PreferenceInput & { kind: EmailKind }) {
    const kind = kindOf(input.kind);
    // The kind's name is written with the message, in the caller's language.
    const label = writtenLater(() => i18n._(kind.label));
    if (kind.required && input.email === false) {
      const message = msg`${label} e-mails cannot be turned off: they keep your account yours.`;
      throw badRequest(message, [{ path: 'email', message }]);
    }
    if (!kind.push && input.push !== undefined) {
      const message = msg`${label} are not sent by push.`;
      throw badRequest(message, [{ path: 'push', message }]);
    }
    await queries.upsertPreference(db, {
      userId,
      kind: input.kind,
      email: input.email,
      push: input.push,
      emailByDefault: kind.byDefault,
    });
  },

  /** Whether the person wants e-mails of this kind: ask before sending one (required kinds always go). */
  async wantsEmail(db: Db, userId: string, kind: EmailKind): Promise<boolean> {
    return (await queries.channelsWanted(db, userId, kindOf(kind))).email;
  },

  /** Whether this kind goes by push to the person's devices (on unless turned off). */
  async wantsPush(db: Db, userId: string, kind: EmailKind): Promise<boolean> {
    return (await queries.channelsWanted(db, userId, kindOf(kind))).push;
  },

  /**
   * The person's language and whether they want this kind by e-mail and by push, as a select a
   * notification's own statement reads inside its event's transaction (one round trip, not three).
   */
  recipient: (userId: string, kind: EmailKind) => queries.recipientChannels(userId, kindOf(kind)),
};
