import { MailWarning } from 'lucide-react';
import { emailNotVerifiedMessage } from '#shared/schemas/email-verification.ts';
import { ResendButton } from './resend-button.tsx';

/**
 * Says up front, where a student is about to list or reserve, that their e-mail must be verified
 * first, with the server's own words and a way to get a new link.
 */
export function VerificationRequired({ email, action }: { email: string; action: string }) {
  return (
    <div role="note" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="flex items-center gap-2 font-semibold">
        <MailWarning className="h-5 w-5 shrink-0 text-amber-800" aria-hidden="true" />
        Verify your e-mail to {action}
      </p>
      <p className="mt-1 text-sm">{emailNotVerifiedMessage(email)}</p>
      <ResendButton className="mt-3" />
    </div>
  );
}
