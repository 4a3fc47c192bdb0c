import { Trans, useLingui } from '@lingui/react/macro';
import type { EmailPreference } from '#shared/schemas/account.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSetPreference } from '../api.ts';
import { PushDeviceSwitch } from './push-device-switch.tsx';
import { FormFailure, SettingsSection } from './settings-section.tsx';

// Which notifications reach the person, and how: the e-mail choices, the notification kinds, push, and
// this device's push switch (decisions 022 and 032). The kinds' names and descriptions are the server's,
// in the person's language.

export function PreferencesSection({ preferences }: { preferences: EmailPreference[] }) {
  const { t } = useLingui();
  const set = useSetPreference();
  const shown = (preference: EmailPreference, channel: 'email' | 'push') => {
    const pending =
      set.isPending && set.variables?.kind === preference.kind && set.variables[channel] !== undefined;
    return pending ? Boolean(set.variables?.[channel]) : Boolean(preference[channel]);
  };
  return (
    <SettingsSection
      id="notifications"
      title={t`Notifications`}
      description={t`Choose what reaches you by e-mail, and by push on the devices where you allow it.`}
    >
      <PushDeviceSwitch />
      <ul className="mt-4 divide-y divide-line" aria-label={t`Notification choices`}>
        {preferences.map((preference) => {
          const id = `email-${preference.kind}`;
          const pending = set.isPending && set.variables?.kind === preference.kind;
          const kind = preference.label;
          return (
            <li
              key={preference.kind}
              className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:gap-4"
            >
              <div className="min-w-0 flex-1">
                <p id={`${id}-label`} className="font-semibold text-ink">
                  {preference.label}
                  {preference.required && (
                    <span className="ms-2 text-sm font-normal text-muted">
                      <Trans>(always on)</Trans>
                    </span>
                  )}
                </p>
                <p id={`${id}-description`} className="text-sm text-muted">
                  {preference.description}
                </p>
              </div>
              <div className="flex shrink-0 gap-5">
                <label className="flex min-h-11 w-20 items-center gap-2 text-sm text-ink">
                  <input
                    id={id}
                    type="checkbox"
                    className="h-5 w-5 accent-brand-700"
                    checked={shown(preference, 'email')}
                    disabled={preference.required || pending}
                    aria-label={preference.required ? t`${kind} (always on): e-mail` : t`${kind}: e-mail`}
                    aria-describedby={`${id}-description`}
                    onChange={(event) => set.mutate({ kind: preference.kind, email: event.target.checked })}
                  />
                  <Trans>E-mail</Trans>
                </label>
                {/* An empty column keeps the E-mail boxes in one line down the list. */}
                {preference.push === null && <span aria-hidden="true" className="hidden w-20 sm:block" />}
                {preference.push !== null && (
                  <label className="flex min-h-11 w-20 items-center gap-2 text-sm text-ink">
                    <input
                      type="checkbox"
                      className="h-5 w-5 accent-brand-700"
                      checked={shown(preference, 'push')}
                      disabled={pending}
                      aria-label={t`${kind}: push`}
                      aria-describedby={`${id}-description`}
                      onChange={(event) => set.mutate({ kind: preference.kind, push: event.target.checked })}
                    />
                    <Trans>Push</Trans>
                  </label>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <div className="mt-3">
        <FormFailure
          message={
            set.isError ? errorMessage(set.error, t`Your choice could not be saved. Please try again.`) : null
          }
        />
      </div>
    </SettingsSection>
  );
}
