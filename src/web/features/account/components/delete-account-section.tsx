import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Trash2 } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type DeleteAccountInput, deleteAccountInput } from '#shared/schemas/leaving.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { useDeleteAccount } from '../api.ts';
import { FormFailure, SettingsSection } from './settings-section.tsx';

// "Delete my account" (decision 023): what goes and what stays, then a dialog that asks for the password.

export function DeleteAccountSection() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteAccount(() => {
    setOpen(false);
    toast({
      title: t`Account deleted`,
      description: t`Your account is deleted. We sent a last e-mail to confirm it.`,
    });
    navigate(paths.home);
  });
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<DeleteAccountInput>({
    resolver: zodResolver(deleteAccountInput),
    defaultValues: { currentPassword: '' },
  });

  const onSubmit = handleSubmit((input) =>
    remove.mutate(input, {
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'ACCOUNT_IN_USE') setOpen(false);
        for (const issue of error instanceof ApiError ? (error.issues ?? []) : []) {
          if (issue.path === 'currentPassword') setError('currentPassword', { message: issue.message });
        }
      },
    }),
  );
  // A refusal (a reservation or money in the way) is said on the page, where it stays readable.
  const refused = remove.error instanceof ApiError && remove.error.code === 'ACCOUNT_IN_USE';
  const failure =
    remove.isError &&
    !refused &&
    !(remove.error instanceof ApiError && remove.error.code === 'WRONG_PASSWORD')
      ? errorMessage(remove.error, t`Your account could not be deleted. Please try again.`)
      : null;

  return (
    <SettingsSection
      id="delete-account"
      title={t`Delete my account`}
      description={t`This cannot be undone. Download your data first if you want to keep it.`}
    >
      <ul className="list-disc space-y-1 ps-5 text-sm text-stone-700">
        <li>
          <Trans>Your listings are removed and requests waiting for an answer are cancelled.</Trans>
        </li>
        <li>
          <Trans>
            Your name, e-mail address, username, photo and password are erased, and you are signed out
            everywhere.
          </Trans>
        </li>
        <li>
          <Trans>Messages and reviews you wrote stay, shown as written by “Former student”.</Trans>
        </li>
        <li>
          <Trans>Billing records stay as the law requires, without your name.</Trans>
        </li>
      </ul>
      <p className="mt-3 text-sm text-muted">
        <Trans>
          You cannot delete your account while a reservation is approved or in progress, while money is held
          for a request, or while money is still owed to you or by you (earnings not yet paid out, a refund on
          its way).
        </Trans>
      </p>
      {refused && (
        <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-900">
          {errorMessage(remove.error, '')}
        </p>
      )}
      <AlertDialog.Root
        open={open}
        onOpenChange={(next) => {
          if (remove.isPending) return;
          if (next) {
            reset();
            remove.reset();
          }
          setOpen(next);
        }}
      >
        <AlertDialog.Trigger asChild>
          <Button variant="outline" className="mt-4 border-red-300 text-danger hover:bg-red-50">
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            <Trans>Delete my account</Trans>
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
          <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
            <AlertDialog.Title className="text-lg font-bold text-ink">
              <Trans>Delete your account?</Trans>
            </AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-stone-700">
              <Trans>This cannot be undone. Type your password to confirm.</Trans>
            </AlertDialog.Description>
            <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
              <Field id="deletePassword" label={t`Current Password`} error={errors.currentPassword?.message}>
                <PasswordInput
                  autoComplete="current-password"
                  {...describedBy('deletePassword', errors.currentPassword?.message)}
                  {...register('currentPassword')}
                />
              </Field>
              <FormFailure message={failure} />
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <AlertDialog.Cancel className={buttonClasses('outline')} disabled={remove.isPending}>
                  <Trans>Cancel</Trans>
                </AlertDialog.Cancel>
                <Button type="submit" variant="destructive" disabled={remove.isPending}>
                  {remove.isPending ? t`Deleting...` : t`Delete my account`}
                </Button>
              </div>
            </form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </SettingsSection>
  );
}
