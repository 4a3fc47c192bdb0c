import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { LOCALES } from '../i18n.ts';
import { safeReturnPath } from '../return-path.ts';
import { plainText } from './fields.ts';

// One schema per form: the register and login pages validate with these, and so do the routes (spec §5).

/** Spec §5: a university e-mail ends in .edu or contains '.edu.' (e.g. ox.edu.uk style domains). */
export function isUniversityEmail(email: string): boolean {
  const domain = email.trim().toLowerCase().split('@')[1] ?? '';
  return domain.endsWith('.edu') || domain.includes('.edu.');
}

const universityEmail = plainText('Must be a valid university email address')
  .trim()
  .max(LIMITS.emailMax, 'Must be a valid university email address')
  .pipe(z.email('Must be a valid university email address'))
  .refine(isUniversityEmail, 'Must be a valid university email address')
  .transform((email) => email.toLowerCase());

export const usernameSchema = plainText('Username is required')
  .trim()
  .min(1, 'Username is required')
  .min(LIMITS.usernameMin, `Username must be at least ${LIMITS.usernameMin} characters`)
  .max(LIMITS.usernameMax, `Username must be at most ${LIMITS.usernameMax} characters`)
  .regex(/^[a-zA-Z0-9_.]+$/, 'Username can only contain letters, numbers, dots and underscores');

/**
 * Issue 16: the page to return to after signing up and verifying (carried in the verification link).
 * Only a path of this site; anything else is refused, not quietly dropped.
 */
export const returnToInput = z
  .string({ error: 'The page to return to must be a page of CampusLoop.' })
  .refine((value) => safeReturnPath(value) !== null, 'The page to return to must be a page of CampusLoop.')
  .transform((value) => safeReturnPath(value) ?? '/');

export const registerInput = z.object({
  fullName: plainText('Full name is required')
    .trim()
    .min(1, 'Full name is required')
    .max(LIMITS.fullNameMax, `Full name must be at most ${LIMITS.fullNameMax} characters`),
  username: usernameSchema,
  email: universityEmail,
  campus: plainText('Campus is required')
    .trim()
    .min(1, 'Campus is required')
    .max(253, 'Please choose your university from the list.'),
  password: plainText('Password must be at least 6 characters')
    .min(LIMITS.passwordMin, 'Password must be at least 6 characters')
    .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`),
  returnTo: returnToInput.optional(),
});
export type RegisterInput = z.input<typeof registerInput>;

export const loginInput = z.object({
  email: plainText('Invalid email address')
    .trim()
    .max(LIMITS.emailMax, 'Invalid email address')
    .pipe(z.email('Invalid email address'))
    .transform((email) => email.toLowerCase()),
  password: plainText('Password is required')
    .min(1, 'Password is required')
    .max(LIMITS.passwordMax, 'Password is required'),
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
/** Issue 19: with the language the person reads CampusLoop in. */
export const sessionUser = publicUser.extend({ isAdmin: z.boolean(), locale: z.enum(LOCALES) });
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionResponse = z.object({ user: sessionUser.nullable() });
export const authResponse = z.object({ user: sessionUser });

/**
 * The one answer to a registration (decision 023), whether the address is new, taken, or waiting for its
 * owner: nobody learns from it who has an account. The account is used once the e-mail's link is opened.
 */
export function checkInboxMessage(email: string): string {
  return `Check your inbox: we sent an e-mail to ${email}. Open the link in it to finish creating your account.`;
}
export const registerResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  message: z.string(),
});
export type RegisterResponse = z.infer<typeof registerResponse>;
export const successResponse = z.object({ success: z.literal(true) });
