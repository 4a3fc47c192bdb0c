import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isLocale, LOCALE_NAMES, LOCALES, type Locale } from '#shared/i18n.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { sessionKey, useSession } from '../features/auth/api.ts';
import { api } from '../lib/api.ts';
import { cn } from '../lib/cn.ts';
import { activateLocale, rememberLocale } from '../lib/i18n.ts';

/**
 * The language switch, in the footer and in settings. The choice is remembered in a
 * cookie (the server writes the next page in it) and, for a signed-in person, on the account, which
 * decides the language of their e-mails and notifications and follows them to another device.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { i18n } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();
  // Asked here too, so the switch knows of a signed-in person wherever it is shown.
  useSession();
  const [saving, setSaving] = useState(false);

  async function choose(value: string) {
    if (!isLocale(value) || value === i18n.locale) return;
    const locale: Locale = value;
    setSaving(true);
    try {
      await activateLocale(locale);
      rememberLocale(locale);
      // Who is signed in now (the session may have arrived while the catalogue loaded).
      const user = queryClient.getQueryData<SessionUser | null>(sessionKey);
      if (user) await api.put('/api/account/language', { locale }).catch(() => undefined);
      // What the server wrote (its messages, the page's data) is asked again in the new language.
      await queryClient.invalidateQueries();
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className={cn('flex items-center gap-2', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        <Trans>Language</Trans>
      </label>
      <select
        id={id}
        value={i18n.locale}
        disabled={saving}
        onChange={(event) => void choose(event.target.value)}
        className="min-h-11 rounded-lg border border-line bg-white px-3 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </div>
  );
}
