import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Camera, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { type ProfileInput, profileInput } from '#shared/schemas/account.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/apply-server-errors.ts';
import { compressImage } from '../../../lib/image-compress.ts';
import { toast } from '../../../lib/toast.ts';
import { useRemovePhoto, useUpdateProfile, useUploadPhoto } from '../api.ts';
import { FormFailure, SettingsSection } from './settings-section.tsx';

// Photo, full name and username: what other people see of the person.

export function ProfileSection({ user }: { user: SessionUser }) {
  const { t } = useLingui();
  return (
    <SettingsSection
      id="profile"
      title={t`Profile`}
      description={t`Your photo, name and username, as others see them.`}
    >
      <PhotoPicker user={user} />
      <NameForm user={user} />
    </SettingsSection>
  );
}

function PhotoPicker({ user }: { user: SessionUser }) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadPhoto();
  const remove = useRemovePhoto();
  const busy = upload.isPending || remove.isPending;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    upload.mutate(await compressImage(file), {
      onSuccess: () => toast({ title: t`Photo updated`, description: t`Your new photo is on your profile.` }),
    });
    if (input.current) input.current.value = '';
  };
  const failure = upload.isError
    ? errorMessage(upload.error, t`Your photo could not be uploaded. Please try again.`)
    : remove.isError
      ? errorMessage(remove.error, t`Your photo could not be removed. Please try again.`)
      : null;

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <Avatar name={user.fullName} src={user.profileImage} size="lg" />
      <div className="space-y-2">
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            id="profile-photo"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            className="sr-only"
            aria-label={t`Profile photo`}
            // The button below is the way in by keyboard; the input only holds the chosen file.
            tabIndex={-1}
            onChange={(event) => void onFile(event.target.files?.[0])}
            disabled={busy}
          />
          <Button type="button" variant="outline" disabled={busy} onClick={() => input.current?.click()}>
            <Camera className="h-4 w-4" aria-hidden="true" />
            {upload.isPending ? t`Uploading...` : user.profileImage ? t`Change Photo` : t`Add Photo`}
          </Button>
          {user.profileImage && (
            <Button
              type="button"
              variant="ghost"
              disabled={busy}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () =>
                    toast({ title: t`Photo removed`, description: t`Your initial shows instead.` }),
                })
              }
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              {remove.isPending ? t`Removing...` : t`Remove`}
            </Button>
          )}
        </div>
        <p className="text-sm text-muted">
          <Trans>JPEG, PNG, WebP, GIF or AVIF, up to 5 MB. It is cropped to a square.</Trans>
        </p>
        <FormFailure message={failure} />
      </div>
    </div>
  );
}

function NameForm({ user }: { user: SessionUser }) {
  const { t } = useLingui();
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
    reset,
  } = useForm<ProfileInput>({
    resolver: zodResolver(profileInput),
    values: { fullName: user.fullName, username: user.username },
  });

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: ({ user: saved }) => {
        reset({ fullName: saved.fullName, username: saved.username });
        toast({ title: t`Profile saved`, description: t`Your name and username are up to date.` });
      },
      onError: (error) => applyServerErrors(error, setError, ['fullName', 'username']),
    }),
  );
  const failure =
    update.isError &&
    !(
      update.error instanceof ApiError &&
      (update.error.issues?.length || update.error.code === 'USERNAME_TAKEN')
    )
      ? errorMessage(update.error, t`Your profile could not be saved. Please try again.`)
      : null;

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-4 sm:grid-cols-2">
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
      <div className="space-y-3 sm:col-span-2">
        <FormFailure message={failure} />
        <Button type="submit" disabled={update.isPending || !isDirty}>
          {update.isPending ? t`Saving...` : t`Save Changes`}
        </Button>
      </div>
    </form>
  );
}
