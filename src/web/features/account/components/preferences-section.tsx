import type { EmailPreference } from '#shared/schemas/account.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSetPreference } from '../api.ts';
import { FormFailure, SettingsSection } from './settings-section.tsx';

// Which e-mails to receive (issue 15; the lifecycle issue adds its kinds to the same list).

export function PreferencesSection({ preferences }: { preferences: EmailPreference[] }) {
  const set = useSetPreference();
  return (
    <SettingsSection
      id="notifications"
      title="E-mail Notifications"
      description="Choose which e-mails we send you."
    >
      <ul className="divide-y divide-line">
        {preferences.map((preference) => {
          const id = `email-${preference.kind}`;
          const pending = set.isPending && set.variables?.kind === preference.kind;
          return (
            <li key={preference.kind} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
              <input
                id={id}
                type="checkbox"
                className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
                checked={pending ? Boolean(set.variables?.email) : preference.email}
                disabled={preference.required || pending}
                aria-describedby={`${id}-description`}
                onChange={(event) => set.mutate({ kind: preference.kind, email: event.target.checked })}
              />
              <div>
                <label htmlFor={id} className="font-semibold text-ink">
                  {preference.label}
                  {preference.required && (
                    <span className="ms-2 text-sm font-normal text-muted">(always on)</span>
                  )}
                </label>
                <p id={`${id}-description`} className="text-sm text-muted">
                  {preference.description}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      <div className="mt-3">
        <FormFailure
          message={
            set.isError ? errorMessage(set.error, 'Your choice could not be saved. Please try again.') : null
          }
        />
      </div>
    </SettingsSection>
  );
}
