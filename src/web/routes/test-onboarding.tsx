import { Trans, useLingui } from '@lingui/react/macro';
import { Landmark, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { answerTestOnboarding } from '../features/payouts/api.ts';
import { errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// /payouts/test/onboarding?account=…&return_url=…: the built-in test provider's stand-in for Stripe's
// hosted Express onboarding (decision 056). Like Stripe's it sends the browser back to the return
// address, where the account is read again from the provider.

type Outcome = 'complete' | 'needs_information' | 'rejected';

export default function TestOnboardingRoute() {
  return (
    <AuthGuard>
      <TestOnboardingPage />
    </AuthGuard>
  );
}

/** Only an address of this site: the page never sends the browser elsewhere. */
function sameSite(address: string | null): string {
  if (!address) return `${paths.settings}?payouts=return#get-paid`;
  try {
    const url = new URL(address, window.location.origin);
    if (url.origin === window.location.origin) return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    // Not an address at all: the settings page.
  }
  return `${paths.settings}?payouts=return#get-paid`;
}

function TestOnboardingPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Set up payouts`);
  const [params] = useSearchParams();
  const accountId = params.get('account') ?? '';
  const [busy, setBusy] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  const answer = async (outcome: Outcome) => {
    setBusy(outcome);
    setError(null);
    try {
      await answerTestOnboarding(accountId, outcome);
      window.location.replace(sameSite(params.get('return_url')));
    } catch (failure) {
      setBusy(null);
      setError(errorMessage(failure, t`The test provider could not be reached. Please try again.`));
    }
  };

  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Card className="p-6 sm:p-8">
        <div className="text-center">
          <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Landmark className="h-8 w-8" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-ink">
            <Trans>Set up payouts</Trans>
          </h1>
          <p className="mt-2 text-muted">
            <Trans>
              Stripe would ask here for your bank account and identity. This is the test mode of CampusLoop:
              choose what Stripe decides. No real money moves.
            </Trans>
          </p>
        </div>
        {accountId ? (
          <div className="mt-6 grid gap-3">
            <Button onClick={() => void answer('complete')} disabled={busy !== null}>
              {busy === 'complete' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
              <Trans>Complete onboarding</Trans>
            </Button>
            <Button
              variant="outline"
              onClick={() => void answer('needs_information')}
              disabled={busy !== null}
            >
              {busy === 'needs_information' && (
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
              )}
              <Trans>Needs more information</Trans>
            </Button>
            <Button variant="outline" onClick={() => void answer('rejected')} disabled={busy !== null}>
              {busy === 'rejected' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
              <Trans>Reject</Trans>
            </Button>
          </div>
        ) : (
          <p role="alert" className="mt-6 text-center text-danger">
            <Trans>This link is not complete: there is no account to set up.</Trans>
          </p>
        )}
        {error && (
          <p role="alert" className="mt-4 text-center text-danger">
            {error}
          </p>
        )}
      </Card>
    </div>
  );
}
