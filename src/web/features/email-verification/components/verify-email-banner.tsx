import { Trans, useLingui } from '@lingui/react/macro';
import { MailWarning } from 'lucide-react';
import { useLocation } from 'react-router';
import { paths } from '../../../paths.ts';
import { useSession } from '../../auth/api.ts';
import { ResendButton } from './resend-button.tsx';

/** Under the header for a signed-in student whose e-mail is not verified yet (decision 007). */
export function VerifyEmailBanner() {
  const { t } = useLingui();
  const { user } = useSession();
  const { pathname } = useLocation();
  // The verification page speaks for itself.
  if (!user || user.isVerified || pathname.toLowerCase() === paths.verifyEmail) return null;
  const email = user.email;
  return (
    <section aria-label={t`E-mail verification`} className="border-b border-amber-200 bg-amber-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
        <p className="flex min-w-0 flex-1 items-start gap-2 text-sm text-amber-950">
          <MailWarning className="mt-0.5 h-4 w-4 shrink-0 text-amber-800" aria-hidden="true" />
          <span className="min-w-0 break-words">
            <Trans>
              <strong className="font-semibold">Verify your university e-mail.</strong> We sent a link to{' '}
              <span className="font-medium break-all">{email}</span>. Until you open it you can browse and
              chat, but not request, lend or list items.
            </Trans>
          </span>
        </p>
        <ResendButton className="self-start sm:self-auto" />
      </div>
    </section>
  );
}
