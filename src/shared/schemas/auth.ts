import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { LOCALES } from '../i18n.ts';
import { safeReturnPath } from '../return-path.ts';
import { plainText } from './fields.ts';

// One schema per form: the register and login pages validate with these, and so do the routes (spec §5).
// Messages are functions, written when the error happens in the active language (fields.ts).

const { usernameMin, usernameMax, fullNameMax, passwordMax } = LIMITS;

/** Spec §5: a university e-mail ends in .edu or contains '.edu.' (e.g. ox.edu.uk style domains). */
export function isUniversityEmail(email: string): boolean {
  const domain = email.trim().toLowerCase().split('@')[1] ?? '';
  return domain.endsWith('.edu') || domain.includes('.edu.');
}

const notUniversityEmail = () => t`Must be a valid university email address`;
const universityEmail = plainText(notUniversityEmail)
  .trim()
  .max(LIMITS.emailMax, { error: notUniversityEmail })
  .pipe(z.email({ error: notUniversityEmail }))
  .refine(isUniversityEmail, { error: notUniversityEmail })
  .transform((email) => email.toLowerCase());

const usernameRequired = () => t`Username is required`;
export const usernameSchema = plainText(usernameRequired)
  .trim()
  .min(1, { error: usernameRequired })
  .min(usernameMin, { error: () => t`Username must be at least ${usernameMin} characters` })
  .max(usernameMax, { error: () => t`Username must be at most ${usernameMax} characters` })
  .regex(/^[a-zA-Z0-9_.]+$/, {
    error: () => t`Username can only contain letters, numbers, dots and underscores`,
  });

/**
 * The page to return to after signing up and verifying (carried in the verification link).
 * Only a path of this site; anything else is refused, not quietly dropped.
 */
const notOurPage = () => t`The page to return to must be a page of CampusLoop.`;
export const returnToInput = z
  .string({ error: notOurPage })
  .refine((value) => safeReturnPath(value) !== null, { error: notOurPage })
  .transform((value) => safeReturnPath(value) ?? '/');

const fullNameRequired = () => t`Full name is required`;
const campusRequired = () => t`Campus is required`;
const passwordTooShort = () => t`Password must be at least 6 characters`;
export const registerInput = z.object({
  fullName: plainText(fullNameRequired)
    .trim()
    .min(1, { error: fullNameRequired })
    .max(fullNameMax, { error: () => t`Full name must be at most ${fullNameMax} characters` }),
  username: usernameSchema,
  email: universityEmail,
  campus: plainText(campusRequired)
    .trim()
    .min(1, { error: campusRequired })
    .max(253, { error: () => t`Please choose your university from the list.` }),
  password: plainText(passwordTooShort)
    .min(LIMITS.passwordMin, { error: passwordTooShort })
    .max(passwordMax, { error: () => t`Password must be at most ${passwordMax} characters` }),
  returnTo: returnToInput.optional(),
});
export type RegisterInput = z.input<typeof registerInput>;

const invalidEmail = () => t`Invalid email address`;
const passwordRequired = () => t`Password is required`;
export const loginInput = z.object({
  email: plainText(invalidEmail)
    .trim()
    .max(LIMITS.emailMax, { error: invalidEmail })
    .pipe(z.email({ error: invalidEmail }))
    .transform((email) => email.toLowerCase()),
  password: plainText(passwordRequired)
    .min(1, { error: passwordRequired })
    .max(LIMITS.passwordMax, { error: passwordRequired }),
});
export type LoginInput = z.input<typeof loginInput>;

/** What any response may say about a user: never the password hash. */
export const publicUser = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string(),
  fullName: z.string(),
  campus: z.string(),
  campusName: z.string(),
  profileImage: z.string().nullable(),
  isVerified: z.boolean(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** The signed-in person: the user, plus whether they moderate (their e-mail is in ADMIN_EMAILS). */
/** With the language the person reads CampusLoop in. */
export const sessionUser = publicUser.extend({ isAdmin: z.boolean(), locale: z.enum(LOCALES) });
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionResponse = z.object({ user: sessionUser.nullable() });
export const authResponse = z.object({ user: sessionUser });

/**
 * The one answer to a registration (decision 023), whether the address is new, taken, or waiting for its
 * owner: nobody learns from it who has an account. The account is used once the e-mail's link is opened.
 */
export function checkInbox(email: string): MessageDescriptor {
  return msg`Check your inbox: we sent an e-mail to ${email}. Open the link in it to finish creating your account.`;
}
/** The same in the active language. */
export function checkInboxMessage(email: string): string {
  return i18n._(checkInbox(email));
}
export const registerResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  message: z.string(),
});
export type RegisterResponse = z.infer<typeof registerResponse>;
export const successResponse = z.object({ success: z.literal(true) });

/**
 * The body of an action that needs none (sign out, sign out of other sessions): nothing at all, an
 * empty one, or `{}`. A client that sends no body must not be refused, or a sign-out would leave the
 * session alive.
 */
export const noBody = z.object({}).nullish();
