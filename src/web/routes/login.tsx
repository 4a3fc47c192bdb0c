import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { withReturnTo } from '#shared/return-path.ts';
import { type LoginInput, loginInput } from '#shared/schemas/auth.ts';
import { Button } from '../components/ui/button.tsx';
import { describedBy, Field } from '../components/ui/field.tsx';
import { Input } from '../components/ui/input.tsx';
import { PasswordInput } from '../components/ui/password-input.tsx';
import { useLogin } from '../features/auth/api.ts';
import { AuthCard } from '../features/auth/components/auth-card.tsx';
import { errorMessage } from '../lib/api.ts';
import { useReturnTo } from '../lib/return-to.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

export default function LoginPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Sign In`);
  const navigate = useNavigate();
  const login = useLogin();
  // Back to the page the student came from (validated: this site's pages only).
  const returnTo = useReturnTo();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginInput), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: () => {
        toast({ title: t`Welcome back!`, description: t`You've been successfully logged in.` });
        // Spec §2 Login: go home (or back where they were) after about 100 ms, once the session has
        // been refetched.
        setTimeout(() => navigate(returnTo ?? paths.home), 100);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t`Login failed`,
          description: errorMessage(error, t`Please check your credentials and try again.`),
        }),
    }),
  );

  return (
    <AuthCard
      title={t`Welcome back`}
      subtitle={t`Sign in with your university email`}
      continueLabel={t`Continue browsing without signing in`}
      footer={
        <Trans>
          New to CampusLoop?{' '}
          <Link
            to={withReturnTo(paths.register, returnTo)}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Create an account
          </Link>
        </Trans>
      }
    >
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
        <Field id="password" label={t`Password`} error={errors.password?.message}>
          <PasswordInput
            autoComplete="current-password"
            {...describedBy('password', errors.password?.message)}
            {...register('password')}
          />
        </Field>
        <p className="-mt-2 text-end text-sm">
          {/* The address typed so far goes along in the router's state, never in the URL. */}
          <Link
            to={paths.forgotPassword}
            state={{ email: watch('email') }}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            <Trans>Forgot password?</Trans>
          </Link>
        </p>
        <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
          {login.isPending ? t`Signing In...` : t`Sign In`}
        </Button>
      </form>
    </AuthCard>
  );
}
