import {
  EMAIL_KINDS,
  type EmailKind,
  type EmailPreference,
  type PreferenceInput,
} from '#shared/schemas/account.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../errors.ts';
import * as queries from './queries.ts';

// Which e-mails and pushes a person wants, by kind (issues 15 and 18): Account settings shows and changes
// them, senders ask before sending, the one-click unsubscribe turns one off. Only choices made are
// stored; a kind without a row takes its default from EMAIL_KINDS (push: on).

const kindOf = (kind: EmailKind) => EMAIL_KINDS.find((k) => k.kind === kind)!;

export const preferenceService = {
  async list(db: Db, userId: string): Promise<EmailPreference[]> {
    const chosen = new Map((await queries.listPreferences(db, userId)).map((row) => [row.kind, row]));
    return EMAIL_KINDS.map(({ kind, label, description, required, byDefault, push }) => ({
      kind,
      label,
      description,
      required,
      email: required ? true : (chosen.get(kind)?.email ?? byDefault),
      push: push ? (chosen.get(kind)?.push ?? true) : null,
    }));
  },

  async set(db: Db, userId: string, input: PreferenceInput & { kind: EmailKind }) {
    const kind = kindOf(input.kind);
    if (kind.required && input.email === false) {
      const message = `${kind.label} e-mails cannot be turned off: they keep your account yours.`;
      throw badRequest(message, [{ path: 'email', message }]);
    }
    if (!kind.push && input.push !== undefined) {
      const message = `${kind.label} are not sent by push.`;
      throw badRequest(message, [{ path: 'push', message }]);
    }
    await queries.upsertPreference(db, {
      userId,
      kind: input.kind,
      email: input.email,
      push: input.push,
      emailByDefault: kind.byDefault,
    });
    return preferenceService.list(db, userId);
  },

  /** Whether the person wants e-mails of this kind: ask before sending one (required kinds always go). */
  async wantsEmail(db: Db, userId: string, kind: EmailKind): Promise<boolean> {
    const known = kindOf(kind);
    if (known.required) return true;
    return (await queries.findPreference(db, userId, kind))?.email ?? known.byDefault;
  },

  /** Issue 18: whether this kind goes by push to the person's devices (on unless turned off). */
  async wantsPush(db: Db, userId: string, kind: EmailKind): Promise<boolean> {
    if (!kindOf(kind).push) return false;
    return (await queries.findPreference(db, userId, kind))?.push ?? true;
  },
};
