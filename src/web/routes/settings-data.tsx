import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, Download } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button.tsx';
import { dataExportUrl } from '../features/account/api.ts';
import { DeleteAccountSection } from '../features/account/components/delete-account-section.tsx';
import { SettingsSection } from '../features/account/components/settings-section.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// "Download my data" and "Delete my account" (/settings/data, linked from /settings).

export default function SettingsDataRoute() {
  return (
    <AuthGuard>
      <SettingsDataPage />
    </AuthGuard>
  );
}

function SettingsDataPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Your Data`);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link
        to={paths.settings}
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
        <Trans>Account Settings</Trans>
      </Link>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink">
        <Trans>Your Data</Trans>
      </h1>
      <p className="mt-1 text-muted">
        <Trans>Take a copy of it, or leave CampusLoop</Trans>
      </p>
      <div className="mt-6 space-y-6">
        <SettingsSection
          id="download"
          title={t`Download my data`}
          description={t`One JSON file with your profile, items, reservations, messages, the reviews you wrote and your billing history.`}
        >
          <a href={dataExportUrl} download className={buttonClasses('outline')}>
            <Download className="h-4 w-4" aria-hidden="true" />
            <Trans>Download my data</Trans>
          </a>
        </SettingsSection>
        <DeleteAccountSection />
      </div>
    </div>
  );
}
