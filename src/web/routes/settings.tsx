import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useAccount } from '../features/account/api.ts';
import { PreferencesSection } from '../features/account/components/preferences-section.tsx';
import { ProfileSection } from '../features/account/components/profile-section.tsx';
import { EmailSection, PasswordSection } from '../features/account/components/security-sections.tsx';
import { SessionsSection } from '../features/account/components/sessions-section.tsx';
import { SettingsSection } from '../features/account/components/settings-section.tsx';
import { useSession } from '../features/auth/api.ts';
import { GetPaidSection } from '../features/payouts/components/get-paid-section.tsx';
import { SavedSearchesSection } from '../features/saved-searches/components/saved-searches-section.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';
import { LanguageSwitch } from '../shell/language-switch.tsx';

// Account settings (/settings, in the user menu), and the language, next to the
// notifications it also decides.

export default function SettingsRoute() {
  return (
    <AuthGuard>
      <SettingsPage />
    </AuthGuard>
  );
}

function SettingsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Account Settings`);
  const account = useAccount();
  // The header's copy of the person, kept current by every change made here.
  const { user: sessionUser } = useSession();
  const user = sessionUser ?? account.data?.user;

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight text-ink">
        <Trans>Account Settings</Trans>
      </h1>
      <p className="mt-1 text-muted">
        <Trans>Your profile, sign-in and e-mails</Trans>
      </p>
      <div className="mt-6 space-y-6">
        {account.isPending ? (
          <div role="status" className="space-y-6">
            <span className="sr-only">
              <Trans>Loading your settings...</Trans>
            </span>
            <Skeleton className="h-64 w-full rounded-2xl" />
            <Skeleton className="h-48 w-full rounded-2xl" />
          </div>
        ) : account.isError || !user ? (
          <Card role="alert" className="px-6 py-10 text-center">
            <p className="font-semibold text-ink">
              <Trans>Your settings could not be loaded.</Trans>
            </p>
            <Button variant="outline" className="mt-4" onClick={() => void account.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Card>
        ) : (
          <>
            <ProfileSection user={user} />
            <EmailSection user={user} pendingEmail={account.data.pendingEmail} />
            <PasswordSection />
            <SettingsSection
              id="language"
              title={t`Language`}
              description={t`Your e-mails and notifications will be in this language too.`}
            >
              <LanguageSwitch />
            </SettingsSection>
            <GetPaidSection />
            <PreferencesSection preferences={account.data.preferences} />
            <SavedSearchesSection />
            <SessionsSection />
            <Card className="p-5 sm:p-6">
              <Link
                to={paths.settingsData}
                className="flex items-center justify-between gap-3 rounded-lg text-ink hover:text-brand-700"
              >
                <span>
                  <span className="block text-lg font-bold">
                    <Trans>Your data</Trans>
                  </span>
                  <span className="block text-sm text-muted">
                    <Trans>Download my data, or delete my account</Trans>
                  </span>
                </span>
                <ChevronRight className="rtl:-scale-x-100 h-5 w-5 shrink-0" aria-hidden="true" />
              </Link>
            </Card>
          </>
        )}
      </div>
    </div>
  );
}
