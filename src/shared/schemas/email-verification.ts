import { z } from 'zod';
import { loginInput, returnToInput, sessionUser } from './auth.ts';

// Verified e-mail (issue 6): the link from the e-mail, the Resend button, and the rule that an
// unverified student cannot request, approve or list (the web shows the server's message).

/** The error code of a request refused because the user's e-mail is not verified yet. */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

export function emailNotVerifiedMessage(email: string): string {
  return `Please verify your university e-mail first. We sent a link to ${email}.`;
}

/** Sign-in with the password of an account whose address nobody proved yet (decision 023). */
export function signInNeedsVerificationMessage(email: string): string {
  return `Please open the link we sent to ${email} first: it confirms your address and signs you in.`;
}

export const INVALID_VERIFICATION_LINK =
  'This verification link is not valid. Please open the whole link from the newest e-mail we sent you.';

/** The token from the link's `?token=`: 32 random bytes, base64url. */
export const verifyEmailInput = z.object({
  token: z
    .string({ error: INVALID_VERIFICATION_LINK })
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, INVALID_VERIFICATION_LINK),
});
export type VerifyEmailInput = z.input<typeof verifyEmailInput>;

/**
 * Resend: optionally the page the new link should return to (issue 16). Signed out (the "Check your inbox"
 * screen after registering) it names the address; the answer is the same whoever has it (decision 023).
 */
export const resendVerificationInput = z
  .object({ returnTo: returnToInput.optional(), email: loginInput.shape.email.optional() })
  .optional();

/** Verifying and resending both answer the address concerned; verifying signs in (decision 023). */
export const verificationResponse = z.object({
  success: z.literal(true),
  email: z.string(),
  user: sessionUser.optional(),
});
export type VerificationResponse = z.infer<typeof verificationResponse>;
