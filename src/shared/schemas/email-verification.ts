import { z } from 'zod';

// Verified e-mail (issue 6): the link from the e-mail, the Resend button, and the rule that an
// unverified student cannot request, approve or list (the web shows the server's message).

/** The error code of a request refused because the user's e-mail is not verified yet. */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

export function emailNotVerifiedMessage(email: string): string {
  return `Please verify your university e-mail first. We sent a link to ${email}.`;
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

/** Verifying and resending both answer the address concerned. */
export const verificationResponse = z.object({ success: z.literal(true), email: z.string() });
export type VerificationResponse = z.infer<typeof verificationResponse>;
