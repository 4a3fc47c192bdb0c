import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert, CircleCheck, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { withReturnTo } from '#shared/return-path.ts';
import { INVALID_VERIFICATION_LINK } from '#shared/schemas/email-verification.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useSession } from '../features/auth/api.ts';
import { ResendButton } from '../features/email-verification/components/resend-button.tsx';
import { useVerifyEmail } from '../features/email-verification/queries.ts';
import { ApiError, errorMessage } from '../lib/api.ts';
import { useReturnTo } from '../lib/return-to.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// /verify-email?token=…: the page the e-mail's link opens. It sends the token once and says how it went.

const FAILURE_TITLES: Record<string, MessageDescriptor> = {
  VERIFICATION_LINK_USED: msg`This link was already used`,
  EMAIL_ALREADY_VERIFIED: msg`Your e-mail is already verified`,
  VERIFICATION_LINK_EXPIRED: msg`This link has expired`,
};

export default function VerifyEmailPage() {
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Verify E-mail`);
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // Once per token: a link works once, so a second request (React's development double effects,
  // a re-render) would only report it as used.
  const sentFor = useRef<string | null>(null);
  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    mutate(token);
  }, [token, mutate]);

  if (!token)
    return <Failure title={t`This link is not complete`} message={INVALID_VERIFICATION_LINK} code="" />;
  if (verify.isSuccess) return <Success email={verify.data.email} />;
  if (verify.isError) {
    const code = verify.error instanceof ApiError ? (verify.error.code ?? '') : '';
    const title = FAILURE_TITLES[code];
    return (
      <Failure
        title={title ? i18n._(title) : t`This link does not work`}
        message={errorMessage(verify.error, t`Please try again.`)}
        code={code}
      />
    );
  }
  return (
    <Shell>
      <p role="status" className="flex flex-col items-center gap-3 text-center">
        <Loader2 className="h-10 w-10 animate-spin text-brand-700" aria-hidden="true" />
        <span className="text-lg font-semibold text-ink">
          <Trans>Verifying your e-mail...</Trans>
        </span>
      </p>
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Card className="p-6 sm:p-8">{children}</Card>
    </div>
  );
}

function Success({ email }: { email: string }) {
  const { t } = useLingui();
  const { user } = useSession();
  // The link may name the page the student was on; signed in, they go straight back.
  const returnTo = useReturnTo();
  const navigate = useNavigate();
  const goBack = Boolean(user?.isVerified && returnTo);
  const verified = t`E-mail verified`;
  const welcome = t`${email} is confirmed. Welcome back!`;
  useEffect(() => {
    if (!goBack || !returnTo) return;
    toast({ title: verified, description: welcome });
    navigate(returnTo, { replace: true });
  }, [goBack, returnTo, verified, welcome, navigate]);
  return (
    <Shell>
      <div className="text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <CircleCheck className="h-8 w-8" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">
          <Trans>Your e-mail is verified</Trans>
        </h1>
        <p className="mt-2 break-words text-muted">
          <Trans>
            Thanks! <span className="font-medium text-ink">{email}</span> is confirmed. You can now request,
            lend and list items on CampusLoop.
          </Trans>
        </p>
        <div className="mt-6 grid gap-3">
          {user ? (
            <>
              <Button asChild>
                <Link to={paths.browse}>
                  <Trans>Browse Items</Trans>
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link to={paths.listItem}>
                  <Trans>List an Item</Trans>
                </Link>
              </Button>
            </>
          ) : (
            <Button asChild>
              <Link to={withReturnTo(paths.login, returnTo)}>
                <Trans>Sign In</Trans>
              </Link>
            </Button>
          )}
        </div>
      </div>
    </Shell>
  );
}

function Failure({ title, message, code }: { title: string; message: string; code: string }) {
  const { t } = useLingui();
  const { user, isLoading } = useSession();
  const returnTo = useReturnTo();
  const done = code === 'VERIFICATION_LINK_USED' || code === 'EMAIL_ALREADY_VERIFIED';
  const userEmail = user?.email;
  return (
    <Shell>
      <div className="text-center">
        <span
          className={
            done
              ? 'mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700'
              : 'mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-red-50 text-danger'
          }
        >
          {done ? (
            <CircleCheck className="h-8 w-8" aria-hidden="true" />
          ) : (
            <CircleAlert className="h-8 w-8" aria-hidden="true" />
          )}
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">{title}</h1>
        <p role="alert" className="mt-2 text-muted">
          {message}
        </p>
        <div className="mt-6 grid gap-3">
          {isLoading ? null : user && !user.isVerified ? (
            <>
              <p className="text-sm text-muted">
                <Trans>
                  Get a new link at <span className="font-medium break-all text-ink">{userEmail}</span>:
                </Trans>
              </p>
              <ResendButton variant="primary" size="md" returnTo={returnTo} />
            </>
          ) : user ? (
            <Button asChild>
              <Link to={paths.browse}>
                <Trans>Browse Items</Trans>
              </Link>
            </Button>
          ) : (
            <>
              {/* Unverified accounts cannot sign in (decision 023): registering again sends a new link. */}
              {!done && (
                <p className="text-sm text-muted">
                  <Trans>Register again with the same address to get a new link.</Trans>
                </p>
              )}
              <Button asChild>
                <Link to={withReturnTo(done ? paths.login : paths.register, returnTo)}>
                  {done ? t`Sign In` : t`Register Again`}
                </Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </Shell>
  );
}
