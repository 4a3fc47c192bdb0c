import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { z } from 'zod';
import { loginInput, registerInput, sessionUser } from './auth.ts';
import { followLanguage } from './fields.ts';

// Password reset by e-mail link: the request form, the reset page, and what the API answers.
// The e-mail and password rules are the sign-in and registration ones.

/** A reset link works this long (and once). */
export const PASSWORD_RESET_LINK_MINUTES = 60;

/** The one answer to a reset request, whether or not an account uses the address. */
export function passwordResetSent(email: string): MessageDescriptor {
  return msg`If an account uses ${email}, we've sent a link to reset its password.`;
}
/** The same in the active language. */
export function passwordResetSentMessage(email: string): string {
  return i18n._(passwordResetSent(email));
}

export const invalidResetLink = msg`This password reset link is not valid. Please open the whole link from the newest e-mail we sent you, or request a new one.`;
/** The same in the active language (it follows the language switch). */
export let INVALID_RESET_LINK = '';
followLanguage(invalidResetLink, (text) => {
  INVALID_RESET_LINK = text;
});
const invalidLinkError = () => i18n._(invalidResetLink);

export const passwordResetRequestInput = z.object({ email: loginInput.shape.email });
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestInput>;

export const passwordResetRequestResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  message: z.string(),
});
export type PasswordResetRequestResponse = z.infer<typeof passwordResetRequestResponse>;

/** The token from the link's `?token=`: 32 random bytes, base64url. */
export const resetToken = z
  .string({ error: invalidLinkError })
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: invalidLinkError });

export const passwordResetConfirmInput = z.object({
  token: resetToken,
  password: registerInput.shape.password,
});
export type PasswordResetConfirmInput = z.input<typeof passwordResetConfirmInput>;

/** The reset page's form: the new password twice (only the first is sent). */
export const resetPasswordForm = z
  .object({
    password: registerInput.shape.password,
    confirmPassword: z.string().min(1, { error: () => t`Please type the new password again` }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    error: () => t`The passwords do not match`,
    // Said alongside a too-short password too, not only once that is fixed.
    when: ({ value }) => {
      const form = value as { password?: unknown; confirmPassword?: unknown };
      return typeof form.password === 'string' && typeof form.confirmPassword === 'string';
    },
  });
export type ResetPasswordForm = z.input<typeof resetPasswordForm>;

/**
 * The password is changed and every session of the account ended. `user` is the person now signed in on
 * this device, or null when the account is suspended (the password changed, but no sign-in).
 */
export const passwordResetConfirmResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  user: sessionUser.nullable(),
  suspended: z.boolean(),
});
export type PasswordResetConfirmResponse = z.infer<typeof passwordResetConfirmResponse>;
