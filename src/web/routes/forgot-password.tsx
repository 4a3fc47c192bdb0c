import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import {
  type PasswordResetRequestInput,
  type PasswordResetRequestResponse,
  passwordResetRequestInput,
} from '#shared/schemas/password-reset.ts';
import { Button } from '../components/ui/button.tsx';
import { describedBy, Field } from '../components/ui/field.tsx';
import { Input } from '../components/ui/input.tsx';
import { AuthCard } from '../features/auth/components/auth-card.tsx';
import { useRequestPasswordReset } from '../features/password-reset/api.ts';
import { errorMessage } from '../lib/api.ts';
import { applyServerErrors } from '../lib/apply-server-errors.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// /forgot-password: asks for a reset link by e-mail. The answer is the server's, the same whether or
// not an account uses the address, and it stays on the page (a toast would vanish before it is read).

export default function ForgotPasswordPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Forgot Password`);
  const location = useLocation();
  // The sign-in page passes the address typed there.
  const typed = (location.state as { email?: unknown } | null)?.email;
  const request = useRequestPasswordReset();
  const [sent, setSent] = useState<PasswordResetRequestResponse | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<PasswordResetRequestInput>({
    resolver: zodResolver(passwordResetRequestInput),
    defaultValues: { email: typeof typed === 'string' ? typed : '' },
  });

  const onSubmit = handleSubmit((values) =>
    request.mutate(values, {
      onSuccess: setSent,
      onError: (error) => applyServerErrors(error, setError, ['email']),
    }),
  );

  const sendAnother = () => {
    setSent(null);
    request.reset();
  };
  // Back on the form after 'Send another link': the keyboard is where the address is.
  const wasSent = useRef(false);
  useEffect(() => {
    if (!sent && wasSent.current) setFocus('email');
    wasSent.current = Boolean(sent);
  }, [sent, setFocus]);

  return (
    <AuthCard
      title={t`Forgot your password?`}
      subtitle={t`Enter your university email and we'll send you a link to choose a new one.`}
      continueLabel={t`Continue browsing without signing in`}
      footer={
        <Trans>
          Remembered it?{' '}
          <Link to={paths.login} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Sign in
          </Link>
        </Trans>
      }
    >
      {sent ? (
        <Sent message={sent.message} onSendAnother={sendAnother} />
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <Field id="email" label={t`University Email`} error={errors.email?.message}>
            <Input
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder={t`you@university.edu`}
              {...describedBy('email', errors.email?.message)}
              {...register('email')}
            />
          </Field>
          {request.isError && !errors.email && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-danger">
              {errorMessage(request.error, t`We could not send the link. Please try again in a few minutes.`)}
            </p>
          )}
          <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
            {request.isPending ? t`Sending...` : t`Send Reset Link`}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

function Sent({ message, onSendAnother }: { message: string; onSendAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Said to screen readers and where the keyboard now starts: the form it was on is gone.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="space-y-4">
      <div role="status" className="rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-ink">
        <div className="flex items-start gap-3">
          <MailCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <div className="min-w-0 space-y-1">
            <h2 ref={heading} tabIndex={-1} className="text-base font-semibold text-ink">
              <Trans>Check your e-mail</Trans>
            </h2>
            <p className="break-words">{message}</p>
            <p className="text-muted">
              <Trans>
                The link works once and expires in an hour. Nothing there? Look in your spam folder, or send
                another link.
              </Trans>
            </p>
          </div>
        </div>
      </div>
      <Button variant="outline" size="lg" className="w-full" onClick={onSendAnother}>
        <Trans>Send another link</Trans>
      </Button>
    </div>
  );
}
