import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { BadgeCheck, MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import {
  type ChangeEmailInput,
  type ChangePasswordForm,
  changeEmailInput,
  changePasswordForm,
} from '#shared/schemas/account.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/apply-server-errors.ts';
import { toast } from '../../../lib/toast.ts';
import { useCancelEmailChange, useChangePassword, useRequestEmailChange } from '../api.ts';
import { FormFailure, SettingsSection } from './settings-section.tsx';

// The two changes that ask for the current password: the e-mail address and the password itself.

/** The form's failure unless the server put it on a field. */
function unplaced(error: unknown, fallback: string) {
  if (error instanceof ApiError && error.issues?.length) return null;
  return errorMessage(error, fallback);
}

export function EmailSection({ user, pendingEmail }: { user: SessionUser; pendingEmail: string | null }) {
  const { t } = useLingui();
  const request = useRequestEmailChange();
  const cancel = useCancelEmailChange();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangeEmailInput>({
    resolver: zodResolver(changeEmailInput),
    defaultValues: { newEmail: '', currentPassword: '' },
  });

  const campusName = user.campusName;
  const currentEmail = user.email;

  const onSubmit = handleSubmit((values) =>
    request.mutate(values, {
      onSuccess: ({ message }) => {
        reset();
        toast({ title: t`Check your inbox`, description: message });
      },
      onError: (error) => applyServerErrors(error, setError, ['newEmail', 'currentPassword']),
    }),
  );

  return (
    <SettingsSection
      id="email"
      title={t`E-mail Address`}
      description={t`You sign in with it, and we write to it. A new one must be an address of ${campusName}.`}
    >
      <p className="flex flex-wrap items-center gap-2 text-ink">
        <span className="break-all font-medium">{user.email}</span>
        {user.isVerified ? (
          <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
            <BadgeCheck className="h-3.5 w-3.5" aria-hidden="true" />
            <Trans>Verified</Trans>
          </span>
        ) : (
          <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">
            <Trans>Not verified</Trans>
          </span>
        )}
      </p>
      {pendingEmail && (
        <div
          role="status"
          className="mt-4 flex flex-col gap-3 rounded-lg bg-brand-50 p-3 text-sm text-ink sm:flex-row sm:items-center"
        >
          <MailCheck className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <p className="flex-1">
            <Trans>
              Waiting for you to open the link we sent to{' '}
              <span className="break-all font-semibold">{pendingEmail}</span>. Until then, your address stays{' '}
              {currentEmail}.
            </Trans>
          </p>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={cancel.isPending}
            onClick={() =>
              cancel.mutate(undefined, { onSuccess: () => toast({ title: t`E-mail change cancelled` }) })
            }
          >
            {cancel.isPending ? t`Cancelling...` : t`Cancel Change`}
          </Button>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-5 grid gap-4 sm:grid-cols-2">
        <Field id="newEmail" label={t`New University Email`} error={errors.newEmail?.message}>
          <Input
            type="email"
            autoComplete="email"
            {...describedBy('newEmail', errors.newEmail?.message)}
            {...register('newEmail')}
          />
        </Field>
        <Field id="emailCurrentPassword" label={t`Current Password`} error={errors.currentPassword?.message}>
          <PasswordInput
            autoComplete="current-password"
            {...describedBy('emailCurrentPassword', errors.currentPassword?.message)}
            {...register('currentPassword')}
          />
        </Field>
        <div className="space-y-3 sm:col-span-2">
          <FormFailure
            message={
              request.isError
                ? unplaced(request.error, t`We could not send the link. Please try again.`)
                : null
            }
          />
          <Button type="submit" disabled={request.isPending}>
            {request.isPending ? t`Sending...` : t`Send Confirmation Link`}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}

export function PasswordSection() {
  const { t } = useLingui();
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordForm),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          reset();
          toast({ title: t`Password changed`, description: t`Every other device has been signed out.` });
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          for (const issue of error.issues ?? []) {
            if (issue.path === 'currentPassword' || issue.path === 'newPassword') {
              setError(issue.path, { message: issue.message });
            }
          }
        },
      },
    ),
  );

  return (
    <SettingsSection
      id="password"
      title={t`Password`}
      description={t`Changing it signs you out on every other device.`}
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2 sm:max-w-[calc(50%-0.5rem)]">
          <Field id="currentPassword" label={t`Current Password`} error={errors.currentPassword?.message}>
            <PasswordInput
              autoComplete="current-password"
              {...describedBy('currentPassword', errors.currentPassword?.message)}
              {...register('currentPassword')}
            />
          </Field>
        </div>
        <Field
          id="newPassword"
          label={t`New Password`}
          error={errors.newPassword?.message}
          hint={t`At least 6 characters.`}
        >
          <PasswordInput
            autoComplete="new-password"
            {...describedBy('newPassword', errors.newPassword?.message, true)}
            {...register('newPassword')}
          />
        </Field>
        <Field id="confirmPassword" label={t`Confirm New Password`} error={errors.confirmPassword?.message}>
          <PasswordInput
            autoComplete="new-password"
            {...describedBy('confirmPassword', errors.confirmPassword?.message)}
            {...register('confirmPassword')}
          />
        </Field>
        <div className="space-y-3 sm:col-span-2">
          <FormFailure
            message={
              change.isError
                ? unplaced(change.error, t`Your password could not be changed. Please try again.`)
                : null
            }
          />
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? t`Changing...` : t`Change Password`}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
