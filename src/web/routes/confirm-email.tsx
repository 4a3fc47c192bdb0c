import { Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { confirmEmailChangeInput, INVALID_EMAIL_CHANGE_LINK } from '#shared/schemas/account.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useConfirmEmailChange } from '../features/account/api.ts';
import { useSession } from '../features/auth/api.ts';
import { errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// /confirm-email?token=…: the page the e-mail change link opens. It posts the token once (mail scanners
// fetch links but run no script), then says what happened.

export default function ConfirmEmailPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Confirm E-mail Address`);
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const valid = confirmEmailChangeInput.safeParse({ token }).success;
  const confirm = useConfirmEmailChange();
  const { user } = useSession();
  const sent = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!valid || sent.current) return;
    sent.current = true;
    confirm.mutate(token);
  }, [valid, token, confirm]);
  useEffect(() => {
    if (confirm.isSuccess || confirm.isError) heading.current?.focus();
  }, [confirm.isSuccess, confirm.isError]);

  const state = !valid ? 'bad' : confirm.isSuccess ? 'good' : confirm.isError ? 'bad' : 'busy';
  const title = {
    good: t`Your e-mail address has changed`,
    bad: t`This link did not work`,
    busy: t`Confirming your new address...`,
  }[state];
  const newEmail = confirm.data?.email;

  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Card className="p-6 text-center sm:p-8">
        <span
          className={`mx-auto flex h-14 w-14 items-center justify-center rounded-full ${state === 'bad' ? 'bg-red-50 text-danger' : 'bg-brand-50 text-brand-700'}`}
        >
          {state === 'good' ? (
            <CircleCheck className="h-8 w-8" aria-hidden="true" />
          ) : state === 'bad' ? (
            <CircleAlert className="h-8 w-8" aria-hidden="true" />
          ) : (
            <LoaderCircle className="h-8 w-8 animate-spin" aria-hidden="true" />
          )}
        </span>
        <h1 ref={heading} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink">
          {title}
        </h1>
        {state === 'good' && (
          <p role="status" className="mt-2 break-words text-muted">
            <Trans>
              Your account now uses <span className="font-medium text-ink">{newEmail}</span>. Sign in with it
              from now on.
            </Trans>
          </p>
        )}
        {state === 'bad' && (
          <p role="alert" className="mt-2 text-muted">
            {valid
              ? errorMessage(confirm.error, t`Please try again in a moment.`)
              : INVALID_EMAIL_CHANGE_LINK}
          </p>
        )}
        {state !== 'busy' && (
          <div className="mt-6 grid gap-3">
            <Button asChild>
              <Link to={user ? paths.settings : paths.login}>{user ? t`Back to Settings` : t`Sign In`}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.home}>
                <Trans>Go to Home</Trans>
              </Link>
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
