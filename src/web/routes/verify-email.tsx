import { CircleAlert, CircleCheck, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { withReturnTo } from '#shared/return-path.ts';
import { INVALID_VERIFICATION_LINK } from '#shared/schemas/email-verification.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useSession } from '../features/auth/api.ts';
import { useReturnTo } from '../features/auth/return-to.ts';
import { useVerifyEmail } from '../features/email-verification/api.ts';
import { ResendButton } from '../features/email-verification/components/resend-button.tsx';
import { ApiError, errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// /verify-email?token=…: the page the e-mail's link opens. It sends the token once and says how it went.

const FAILURE_TITLES: Record<string, string> = {
  VERIFICATION_LINK_USED: 'This link was already used',
  EMAIL_ALREADY_VERIFIED: 'Your e-mail is already verified',
  VERIFICATION_LINK_EXPIRED: 'This link has expired',
};

export default function VerifyEmailPage() {
  useDocumentTitle('Verify E-mail');
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
    return <Failure title="This link is not complete" message={INVALID_VERIFICATION_LINK} code="" />;
  if (verify.isSuccess) return <Success email={verify.data.email} />;
  if (verify.isError) {
    const code = verify.error instanceof ApiError ? (verify.error.code ?? '') : '';
    return (
      <Failure
        title={FAILURE_TITLES[code] ?? 'This link does not work'}
        message={errorMessage(verify.error, 'Please try again.')}
        code={code}
      />
    );
  }
  return (
    <Shell>
      <p role="status" className="flex flex-col items-center gap-3 text-center">
        <Loader2 className="h-10 w-10 animate-spin text-brand-700" aria-hidden="true" />
        <span className="text-lg font-semibold text-ink">Verifying your e-mail...</span>
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
  const { user } = useSession();
  // Issue 16: the link may name the page the student was on; signed in, they go straight back.
  const returnTo = useReturnTo();
  const navigate = useNavigate();
  const goBack = Boolean(user?.isVerified && returnTo);
  useEffect(() => {
    if (!goBack || !returnTo) return;
    toast({ title: 'E-mail verified', description: `${email} is confirmed. Welcome back!` });
    navigate(returnTo, { replace: true });
  }, [goBack, returnTo, email, navigate]);
  return (
    <Shell>
      <div className="text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <CircleCheck className="h-8 w-8" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">Your e-mail is verified</h1>
        <p className="mt-2 break-words text-muted">
          Thanks! <span className="font-medium text-ink">{email}</span> is confirmed. You can now request,
          lend and list items on CampusLoop.
        </p>
        <div className="mt-6 grid gap-3">
          {user ? (
            <>
              <Button asChild>
                <Link to={paths.browse}>Browse Items</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to={paths.listItem}>List an Item</Link>
              </Button>
            </>
          ) : (
            <Button asChild>
              <Link to={withReturnTo(paths.login, returnTo)}>Sign In</Link>
            </Button>
          )}
        </div>
      </div>
    </Shell>
  );
}

function Failure({ title, message, code }: { title: string; message: string; code: string }) {
  const { user, isLoading } = useSession();
  const returnTo = useReturnTo();
  const done = code === 'VERIFICATION_LINK_USED' || code === 'EMAIL_ALREADY_VERIFIED';
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
                Get a new link at <span className="font-medium break-all text-ink">{user.email}</span>:
              </p>
              <ResendButton variant="primary" size="md" returnTo={returnTo} />
            </>
          ) : user ? (
            <Button asChild>
              <Link to={paths.browse}>Browse Items</Link>
            </Button>
          ) : (
            <>
              {/* Unverified accounts cannot sign in (decision 023): registering again sends a new link. */}
              {!done && (
                <p className="text-sm text-muted">Register again with the same address to get a new link.</p>
              )}
              <Button asChild>
                <Link to={withReturnTo(done ? paths.login : paths.register, returnTo)}>
                  {done ? 'Sign In' : 'Register Again'}
                </Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </Shell>
  );
}
