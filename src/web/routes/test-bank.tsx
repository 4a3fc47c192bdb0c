import { Trans, useLingui } from '@lingui/react/macro';
import { Loader2, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { authenticateTestPayment } from '../features/payments/queries.ts';
import { errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// /payments/test/authenticate?payment_intent=…: the built-in test provider's stand-in for a card
// issuer's 3-D Secure page (test card 4000 0027 6000 3184). Like a real bank it sends the browser back
// to the return address, /reservations, which finishes the request (spec §4).

export default function TestBankRoute() {
  return (
    <AuthGuard>
      <TestBankPage />
    </AuthGuard>
  );
}

function TestBankPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Confirm your payment`);
  const [params] = useSearchParams();
  const paymentIntentId = params.get('payment_intent') ?? '';
  const [busy, setBusy] = useState<'approve' | 'refuse' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const answer = async (approved: boolean) => {
    setBusy(approved ? 'approve' : 'refuse');
    setError(null);
    try {
      await authenticateTestPayment(paymentIntentId, approved);
      const back = new URLSearchParams({
        payment_intent: paymentIntentId,
        redirect_status: approved ? 'succeeded' : 'failed',
      });
      // Replaced, as a bank's redirect is: Back does not lead here again.
      window.location.replace(`${paths.reservations}?${back}`);
    } catch (failure) {
      setBusy(null);
      setError(errorMessage(failure, t`The bank could not be reached. Please try again.`));
    }
  };

  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Card className="p-6 sm:p-8">
        <div className="text-center">
          <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <ShieldCheck className="h-8 w-8" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-ink">
            <Trans>Confirm your payment</Trans>
          </h1>
          <p className="mt-2 text-muted">
            <Trans>
              Your bank asks you to confirm this card payment to CampusLoop. This is the test bank of
              CampusLoop’s test mode: no real card is charged.
            </Trans>
          </p>
        </div>
        {paymentIntentId ? (
          <div className="mt-6 grid gap-3">
            <Button onClick={() => void answer(true)} disabled={busy !== null}>
              {busy === 'approve' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
              <Trans>Complete authentication</Trans>
            </Button>
            <Button variant="outline" onClick={() => void answer(false)} disabled={busy !== null}>
              {busy === 'refuse' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
              <Trans>Fail authentication</Trans>
            </Button>
          </div>
        ) : (
          <p role="alert" className="mt-6 text-center text-danger">
            <Trans>This link is not complete: there is no payment to confirm.</Trans>
          </p>
        )}
        {error && (
          <p role="alert" className="mt-4 text-center text-sm text-danger">
            {error}
          </p>
        )}
      </Card>
    </div>
  );
}
