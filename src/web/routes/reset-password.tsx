import { zodResolver } from '@hookform/resolvers/zod';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert, CircleCheck, ShieldAlert } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import {
  INVALID_RESET_LINK,
  type PasswordResetConfirmResponse,
  type ResetPasswordForm,
  resetPasswordForm,
  resetToken,
} from '#shared/schemas/password-reset.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { describedBy, Field } from '../components/ui/field.tsx';
import { PasswordInput } from '../components/ui/password-input.tsx';
import { AuthCard } from '../features/auth/components/auth-card.tsx';
import { useConfirmPasswordReset } from '../features/password-reset/api.ts';
import { ApiError, errorMessage } from '../lib/api.ts';
import { applyServerErrors } from '../lib/apply-server-errors.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths, SUPPORT_EMAIL } from '../paths.ts';

// /reset-password?token=…: the page the reset e-mail's link opens. The new password (twice) is sent
// with the token in one POST; a link that is expired, used or not valid says so and offers a new one.

/** The answers that mean the link itself is done for: the form cannot help, a new link can. */
const LINK_PROBLEMS: Record<string, MessageDescriptor> = {
  PASSWORD_RESET_LINK_INVALID: msg`This link does not work`,
  PASSWORD_RESET_LINK_USED: msg`This link was already used`,
  PASSWORD_RESET_LINK_EXPIRED: msg`This link has expired`,
};

export default function ResetPasswordPage() {
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Reset Password`);
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const confirm = useConfirmPasswordReset();
  const [done, setDone] = useState<PasswordResetConfirmResponse | null>(null);
  const [problem, setProblem] = useState<{ title: MessageDescriptor; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { password: '', confirmPassword: '' },
  });

  if (!resetToken.safeParse(token).success) {
    return <LinkProblem title={t`This link is not complete`} message={INVALID_RESET_LINK} />;
  }
  if (problem) return <LinkProblem title={i18n._(problem.title)} message={problem.message} />;
  if (done) return <Done result={done} />;

  const onSubmit = handleSubmit(({ password }) =>
    confirm.mutate(
      { token, password },
      {
        onSuccess: setDone,
        onError: (error) => {
          const title = error instanceof ApiError ? LINK_PROBLEMS[error.code ?? ''] : undefined;
          if (title) setProblem({ title, message: error.message });
          else applyServerErrors(error, setError, ['password']);
        },
      },
    ),
  );
  const failure =
    confirm.isError && !(confirm.error instanceof ApiError && confirm.error.issues?.length)
      ? errorMessage(confirm.error, t`We could not change your password. Please try again.`)
      : null;

  return (
    <AuthCard
      title={t`Choose a new password`}
      subtitle={t`Setting it signs your account out on every device.`}
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
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field
          id="password"
          label={t`New Password`}
          error={errors.password?.message}
          hint={t`At least 6 characters.`}
        >
          <PasswordInput
            autoComplete="new-password"
            {...describedBy('password', errors.password?.message, true)}
            {...register('password')}
          />
        </Field>
        <Field id="confirmPassword" label={t`Confirm New Password`} error={errors.confirmPassword?.message}>
          <PasswordInput
            autoComplete="new-password"
            {...describedBy('confirmPassword', errors.confirmPassword?.message)}
            {...register('confirmPassword')}
          />
        </Field>
        {failure && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-danger">
            {failure}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" disabled={confirm.isPending}>
          {confirm.isPending ? t`Saving...` : t`Set New Password`}
        </Button>
      </form>
    </AuthCard>
  );
}

/** A page-sized outcome, its heading focused so keyboard and screen reader users start there. */
function Outcome({
  tone,
  title,
  children,
  actions,
}: {
  tone: 'good' | 'bad';
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Card className="p-6 text-center sm:p-8">
        <span
          className={
            tone === 'good'
              ? 'mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700'
              : 'mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-red-50 text-danger'
          }
        >
          {tone === 'good' ? (
            <CircleCheck className="h-8 w-8" aria-hidden="true" />
          ) : (
            <CircleAlert className="h-8 w-8" aria-hidden="true" />
          )}
        </span>
        <h1 ref={heading} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink">
          {title}
        </h1>
        {children}
        <div className="mt-6 grid gap-3">{actions}</div>
      </Card>
    </div>
  );
}

function LinkProblem({ title, message }: { title: string; message: string }) {
  return (
    <Outcome
      tone="bad"
      title={title}
      actions={
        <>
          <Button asChild>
            <Link to={paths.forgotPassword}>
              <Trans>Request a new link</Trans>
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.login}>
              <Trans>Back to Sign In</Trans>
            </Link>
          </Button>
        </>
      }
    >
      <p role="alert" className="mt-2 text-muted">
        {message}
      </p>
    </Outcome>
  );
}

function Done({ result }: { result: PasswordResetConfirmResponse }) {
  const { t } = useLingui();
  const email = result.email;
  if (result.suspended || !result.user) {
    return (
      <Outcome
        tone="good"
        title={t`Your password has been changed`}
        actions={
          <Button asChild variant="outline">
            <Link to={paths.contact}>
              <Trans>Contact support</Trans>
            </Link>
          </Button>
        }
      >
        <p role="status" className="mt-2 text-muted">
          <Trans>Every device has been signed out.</Trans>
        </p>
        <p className="mt-4 flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-start text-sm text-ink">
          <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0 text-amber-800" aria-hidden="true" />
          <span>
            <Trans>
              This account is suspended, so you cannot sign in. Contact support at{' '}
              <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-700 underline">
                {SUPPORT_EMAIL}
              </a>
              .
            </Trans>
          </span>
        </p>
      </Outcome>
    );
  }
  return (
    <Outcome
      tone="good"
      title={t`Your password has been changed`}
      actions={
        <>
          <Button asChild>
            <Link to={paths.browse}>
              <Trans>Browse Items</Trans>
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.home}>
              <Trans>Go to Home</Trans>
            </Link>
          </Button>
        </>
      }
    >
      <p role="status" className="mt-2 break-words text-muted">
        <Trans>
          You're signed in as <span className="font-medium text-ink">{email}</span> on this device. Every
          other device has been signed out.
        </Trans>
      </p>
    </Outcome>
  );
}
