import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import { loginInput, returnToInput, sessionUser } from './auth.ts';
import { followLanguage } from './fields.ts';

// Verified e-mail: the link from the e-mail, the Resend button, and the rule that an
// unverified student cannot request, approve or list (the web shows the server's message).

/** The error code of a request refused because the user's e-mail is not verified yet. */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

// Each message as a descriptor (the server's errors write it in the caller's language) and as
// text in the active language (what the pages show).

export function emailNotVerified(email: string): MessageDescriptor {
  return msg`Please verify your university e-mail first. We sent a link to ${email}.`;
}
export function emailNotVerifiedMessage(email: string): string {
  return i18n._(emailNotVerified(email));
}

/** Sign-in with the password of an account whose address nobody proved yet (decision 023). */
export function signInNeedsVerification(email: string): MessageDescriptor {
  return msg`Please open the link we sent to ${email} first: it confirms your address and signs you in.`;
}
export function signInNeedsVerificationMessage(email: string): string {
  return i18n._(signInNeedsVerification(email));
}

export const invalidVerificationLink = msg`This verification link is not valid. Please open the whole link from the newest e-mail we sent you.`;
/** The same in the active language (it follows the language switch). */
export let INVALID_VERIFICATION_LINK = '';
followLanguage(invalidVerificationLink, (text) => {
  INVALID_VERIFICATION_LINK = text;
});
const invalidLinkError = () => i18n._(invalidVerificationLink);

/** The token from the link's `?token=`: 32 random bytes, base64url. */
export const verifyEmailInput = z.object({
  token: z
    .string({ error: invalidLinkError })
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: invalidLinkError }),
});
export type VerifyEmailInput = z.input<typeof verifyEmailInput>;

/**
 * Resend: optionally the page the new link should return to. Signed out (the "Check your inbox"
 * screen after registering) it names the address; the answer is the same whoever has it (decision 023).
 */
export const resendVerificationInput = z
  .object({ returnTo: returnToInput.optional(), email: loginInput.shape.email.optional() })
  // A signed-in Resend needs no body: none at all is as good as `{}`.
  .nullish();

/** Verifying and resending both answer the address concerned; verifying signs in (decision 023). */
export const verificationResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  user: sessionUser.optional(),
});
export type VerificationResponse = z.infer<typeof verificationResponse>;
