import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { MailWarning } from 'lucide-react';
import { emailNotVerifiedMessage } from '#shared/schemas/email-verification.ts';
import { ResendButton } from './resend-button.tsx';

/** What the student was about to do, each a whole sentence so it translates (none built of pieces). */
const HEADINGS = {
  reserve: msg`Verify your e-mail to reserve`,
  'list items': msg`Verify your e-mail to list items`,
  'ask your campus': msg`Verify your e-mail to ask your campus`,
} satisfies Record<string, MessageDescriptor>;

/**
 * Says up front, where a student is about to list or reserve, that their e-mail must be verified
 * first, with the server's own words and a way to get a new link.
 */
export function VerificationRequired({ email, action }: { email: string; action: keyof typeof HEADINGS }) {
  const { i18n } = useLingui();
  return (
    <div role="note" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="flex items-center gap-2 font-semibold">
        <MailWarning className="h-5 w-5 shrink-0 text-amber-800" aria-hidden="true" />
        {i18n._(HEADINGS[action])}
      </p>
      <p className="mt-1 text-sm">{emailNotVerifiedMessage(email)}</p>
      <ResendButton className="mt-3" />
    </div>
  );
}
