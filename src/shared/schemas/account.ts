import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { z } from 'zod';
import { LOCALES } from '../i18n.ts';
import { registerInput, sessionUser, usernameSchema } from './auth.ts';
import { followLanguage } from './fields.ts';

// Account settings (/settings): the forms, what the API answers, and the e-mail kinds a person
// may choose. The name, username, e-mail and password rules are the registration ones.

export const profileInput = z.object({
  fullName: registerInput.shape.fullName,
  username: usernameSchema,
});
export type ProfileInput = z.input<typeof profileInput>;

/** The current password proves the person at the keyboard is the account's owner (not a borrowed laptop). */
const enterCurrentPassword = () => t`Please enter your current password`;
const currentPassword = z
  .string({ error: enterCurrentPassword })
  .min(1, { error: enterCurrentPassword })
  .max(200, { error: enterCurrentPassword });

export const changePasswordInput = z.object({
  currentPassword,
  newPassword: registerInput.shape.password,
});
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

/** The settings form: the new password twice (only the first is sent). */
export const changePasswordForm = z
  .object({
    currentPassword,
    newPassword: registerInput.shape.password,
    confirmPassword: z.string().min(1, { error: () => t`Please type the new password again` }),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    path: ['confirmPassword'],
    error: () => t`The passwords do not match`,
    when: ({ value }) => {
      const form = value as { newPassword?: unknown; confirmPassword?: unknown };
      return typeof form.newPassword === 'string' && typeof form.confirmPassword === 'string';
    },
  });
export type ChangePasswordForm = z.input<typeof changePasswordForm>;

export const changeEmailInput = z.object({
  newEmail: registerInput.shape.email,
  currentPassword,
});
export type ChangeEmailInput = z.input<typeof changeEmailInput>;

/** A link to the new address works this long (and once); a newer request replaces it. */
export const EMAIL_CHANGE_LINK_HOURS = 24;

/** The one answer to an e-mail change request, whether or not the address is free (decision 022). */
export function emailChangeSent(email: string): MessageDescriptor {
  return msg`We've sent a link to ${email}. Your address changes when you open it.`;
}
/** The same in the active language. */
export function emailChangeSentMessage(email: string): string {
  return i18n._(emailChangeSent(email));
}

export const invalidEmailChangeLink = msg`This e-mail change link is not valid. Please open the whole link from the newest e-mail we sent you.`;
/** The same in the active language (it follows the language switch). */
export let INVALID_EMAIL_CHANGE_LINK = '';
followLanguage(invalidEmailChangeLink, (text) => {
  INVALID_EMAIL_CHANGE_LINK = text;
});
const invalidLinkError = () => i18n._(invalidEmailChangeLink);

/** The token from the link's `?token=`: 32 random bytes, base64url. */
export const confirmEmailChangeInput = z.object({
  token: z
    .string({ error: invalidLinkError })
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: invalidLinkError }),
});

export const emailChangeRequestResponse = z.object({
  success: z.literal(true),
  pendingEmail: z.string(),
  message: z.string(),
});
export const emailChangeConfirmResponse = z.object({ success: z.literal(true), email: z.string() });
export type EmailChangeConfirmResponse = z.infer<typeof emailChangeConfirmResponse>;

/**
 * The e-mails the app sends, by kind. A `required` kind cannot be turned off: it keeps the account its
 * owner's. A kind without a stored choice takes `byDefault`. Kinds with `push` also go out by Web Push,
 * on by default once a device allowed it. Which kind a notification is:
 * `kindOfNotification` in src/shared/notification-kinds.ts. Label and description are `msg`
 * descriptors, written in the reader's language where they are shown.
 */
export const EMAIL_KINDS = [
  {
    kind: 'account_security',
    label: msg`Account and security`,
    description: msg`Links to verify your address, reset your password or confirm a new e-mail address, and a notice to your old address when it changes. These are always sent.`,
    required: true,
    byDefault: true,
    push: false,
  },
  {
    kind: 'account_activity',
    label: msg`Password changes`,
    description: msg`A note when your password is changed in Account settings, so you would notice if it was not you.`,
    required: false,
    byDefault: true,
    push: false,
  },
  {
    kind: 'requests',
    label: msg`Borrow requests`,
    description: msg`Someone asks to borrow one of your items.`,
    required: false,
    byDefault: true,
    push: true,
  },
  {
    kind: 'approvals',
    label: msg`Answers to your requests`,
    description: msg`A lender approves or declines your request, or a borrow is cancelled or expires.`,
    required: false,
    byDefault: true,
    push: true,
  },
  {
    kind: 'reminders',
    label: msg`Reminders`,
    description: msg`Pickups and returns coming up, and a request about to expire.`,
    required: false,
    byDefault: true,
    push: true,
  },
  {
    kind: 'messages',
    label: msg`Messages`,
    description: msg`By e-mail when a message is still unread after 10 minutes, at most one e-mail per conversation an hour.`,
    required: false,
    byDefault: true,
    push: true,
  },
  {
    kind: 'saved_searches',
    label: msg`Saved searches`,
    description: msg`New listings that match a search you asked to be told about, several at once in one e-mail.`,
    required: false,
    byDefault: true,
    push: true,
  },
  {
    // Lenders want to know when money is on its way to them, so this one is on unless turned off.
    kind: 'payouts',
    label: msg`Money sent to you`,
    description: msg`Your earnings from a borrow were sent to your Stripe account.`,
    required: false,
    byDefault: true,
    push: true,
  },
  {
    kind: 'asks',
    label: msg`Asks from my campus — daily digest`,
    description: msg`One e-mail a day with what students of your campus asked for, and the asks your listings could answer. Off unless you turn it on.`,
    required: false,
    byDefault: false,
    push: true,
  },
  {
    kind: 'updates',
    label: msg`Other updates`,
    description: msg`Returns, deposits, reviews, badges, reports and everything else we tell you.`,
    required: false,
    byDefault: false,
    push: true,
  },
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number]['kind'];
const EMAIL_KIND_NAMES = EMAIL_KINDS.map((k) => k.kind) as [EmailKind, ...EmailKind[]];
export const isEmailKind = (kind: string): kind is EmailKind => EMAIL_KIND_NAMES.includes(kind as EmailKind);

export const emailPreference = z.object({
  kind: z.enum(EMAIL_KIND_NAMES),
  label: z.string(),
  description: z.string(),
  required: z.boolean(),
  email: z.boolean(),
  /** Push for this kind on the person's devices; null for kinds that never go by push. */
  push: z.boolean().nullable(),
});
export type EmailPreference = z.infer<typeof emailPreference>;

const sayWhetherEmail = () => t`Say whether to send these e-mails (true or false).`;
export const preferenceInput = z
  .object({
    kind: z.enum(EMAIL_KIND_NAMES, { error: () => t`Unknown kind of e-mail.` }),
    email: z.boolean({ error: sayWhetherEmail }).optional(),
    push: z.boolean({ error: () => t`Say whether to send these by push (true or false).` }).optional(),
  })
  .refine((input) => input.email !== undefined || input.push !== undefined, {
    error: sayWhetherEmail,
    path: ['email'],
  });
export type PreferenceInput = z.input<typeof preferenceInput>;

export const accountResponse = z.object({
  user: sessionUser,
  /** The address waiting for its link to be opened, if a change was asked for and is still open. */
  pendingEmail: z.string().nullable(),
  preferences: z.array(emailPreference),
});
export type AccountResponse = z.infer<typeof accountResponse>;

export const userResponse = z.object({ user: sessionUser });

export const accountSession = z.object({
  id: z.uuid(),
  device: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;
export const sessionsResponse = z.object({ sessions: z.array(accountSession) });
export const sessionIdParams = z.object({ id: z.uuid({ error: () => t`Session not found.` }) });
export const endedResponse = z.object({ success: z.literal(true), ended: z.number().int() });

/** The language switch's choice, saved on the account. */
export const languageInput = z.object({ locale: z.enum(LOCALES) });
export type LanguageInput = z.infer<typeof languageInput>;
