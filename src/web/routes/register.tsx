import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { withReturnTo } from '#shared/return-path.ts';
import { type RegisterInput, registerInput } from '#shared/schemas/auth.ts';
import type { University } from '#shared/schemas/universities.ts';
import { Button } from '../components/ui/button.tsx';
import { describedBy, Field } from '../components/ui/field.tsx';
import { Input } from '../components/ui/input.tsx';
import { PasswordInput } from '../components/ui/password-input.tsx';
import { useRegister } from '../features/auth/api.ts';
import { AuthCard } from '../features/auth/components/auth-card.tsx';
import { ResendButton } from '../features/email-verification/components/resend-button.tsx';
import { UniversitySelect } from '../features/universities/components/university-select.tsx';
import { useUniversityDetect } from '../features/universities/queries.ts';
import { errorMessage } from '../lib/api.ts';
import { applyServerErrors } from '../lib/apply-server-errors.ts';
import { useReturnTo } from '../lib/return-to.ts';
import { toast } from '../lib/toast.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

const FIELDS = ['fullName', 'username', 'email', 'campus', 'password'];

export default function RegisterPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Create Account`);
  const signUp = useRegister();
  // Back where they were, now and from the verification e-mail's link.
  const returnTo = useReturnTo();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    watch,
    formState: { errors, isSubmitted },
  } = useForm<RegisterInput>({
    resolver: zodResolver(registerInput),
    defaultValues: { fullName: '', username: '', email: '', campus: '', password: '' },
  });

  // Spec §2 Register: a valid e-mail fills the university from its domain, unless the person chose one.
  const [university, setUniversity] = useState<University | null>(null);
  const [chosenByHand, setChosenByHand] = useState(false);
  const email = useDebounced(watch('email').trim(), 300);
  const emailValid = registerInput.shape.email.safeParse(email).success;
  const detect = useUniversityDetect(emailValid ? email : null);
  const detected = emailValid ? (detect.data?.university ?? null) : null;

  useEffect(() => {
    if (chosenByHand || !detected) return;
    setUniversity(detected);
    setValue('campus', detected.domain, { shouldValidate: isSubmitted });
  }, [detected, chosenByHand, setValue, isSubmitted]);

  const autoDetected = !chosenByHand && detected !== null && university?.domain === detected.domain;
  // Only an address that was looked up and matched no university is news; before that, nothing failed.
  const detectionFailed = emailValid && !detect.isFetching && detect.isFetched && detected === null;

  const onSubmit = handleSubmit((values) =>
    signUp.mutate(returnTo ? { ...values, returnTo } : values, {
      // The same screen whoever has the address (decision 023); the link in the e-mail signs in.
      onError: (error) => {
        applyServerErrors(error, setError, FIELDS);
        toast({
          variant: 'destructive',
          title: t`Registration failed`,
          description: errorMessage(error, t`Please try again with different information.`),
        });
      },
    }),
  );

  if (signUp.isSuccess) return <CheckInbox email={signUp.data.email} returnTo={returnTo} />;

  return (
    <AuthCard
      title={t`Join CampusLoop`}
      subtitle={t`Borrow what you need, lend what you don't.`}
      continueLabel={t`Continue browsing`}
      footer={
        <Trans>
          Already have an account?{' '}
          <Link
            to={withReturnTo(paths.login, returnTo)}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </Trans>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field id="fullName" label={t`Full Name`} error={errors.fullName?.message}>
          <Input
            autoComplete="name"
            {...describedBy('fullName', errors.fullName?.message)}
            {...register('fullName')}
          />
        </Field>
        <Field id="username" label={t`Username`} error={errors.username?.message}>
          <Input
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            {...describedBy('username', errors.username?.message)}
            {...register('username')}
          />
        </Field>
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
        <Field
          id="campus"
          label={t`University`}
          error={errors.campus?.message}
          hint={
            autoDetected ? (
              <span className="font-medium text-brand-800">
                <Trans>✓ Auto-detected from your email domain</Trans>
              </span>
            ) : university ? undefined : detectionFailed ? (
              t`University not auto-detected. Please select manually.`
            ) : (
              t`Filled in from your university email, or choose it here.`
            )
          }
        >
          <UniversitySelect
            id="campus"
            value={university}
            invalid={Boolean(errors.campus)}
            describedBy={errors.campus ? 'campus-error' : 'campus-hint'}
            onChange={(chosen) => {
              setChosenByHand(true);
              setUniversity(chosen);
              setValue('campus', chosen.domain, { shouldValidate: isSubmitted });
            }}
          />
        </Field>
        <Field
          id="password"
          label={t`Password`}
          error={errors.password?.message}
          hint={t`At least 6 characters.`}
        >
          <PasswordInput
            autoComplete="new-password"
            {...describedBy('password', errors.password?.message, true)}
            {...register('password')}
          />
        </Field>
        <p className="text-xs text-muted">
          <Trans>
            By creating an account you confirm you are at least 18, enrolled at a participating university,
            and agree to the{' '}
            <Link to={paths.terms} className="font-medium text-brand-700 underline">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to={paths.privacy} className="font-medium text-brand-700 underline">
              Privacy Policy
            </Link>
            .
          </Trans>
        </p>
        <Button type="submit" size="lg" className="w-full" disabled={signUp.isPending}>
          {signUp.isPending ? t`Creating Account...` : t`Create Account`}
        </Button>
      </form>
    </AuthCard>
  );
}

/** After registering: where the link went, and a way to have it sent again. */
function CheckInbox({ email, returnTo }: { email: string; returnTo: string | null }) {
  const { t } = useLingui();
  useDocumentTitle(t`Check Your Inbox`);
  return (
    <AuthCard
      title={t`Check your inbox`}
      subtitle={t`One more step`}
      continueLabel={t`Continue browsing`}
      footer={
        <Trans>
          Already verified?{' '}
          <Link
            to={withReturnTo(paths.login, returnTo)}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </Trans>
      }
    >
      <div className="space-y-4 text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <MailCheck className="h-8 w-8" aria-hidden="true" />
        </span>
        <p role="status" className="break-words text-stone-700">
          <Trans>
            We sent an e-mail to <span className="font-medium text-ink">{email}</span>. Open the link in it to
            finish creating your account: it signs you in.
          </Trans>
        </p>
        <p className="text-sm text-muted">
          <Trans>Nothing there? Look in your spam folder, or have it sent again.</Trans>
        </p>
        <ResendButton variant="outline" size="md" returnTo={returnTo} email={email} />
      </div>
    </AuthCard>
  );
}
