import { Trans, useLingui } from '@lingui/react/macro';
import { Megaphone } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { campusToday } from '#shared/calendar.ts';
import { CATEGORIES, type Category, DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { AskBoard } from '../features/asks/components/ask-board.tsx';
import { AskForm } from '../features/asks/components/ask-form.tsx';
import { useSession } from '../features/auth/api.ts';
import { VerificationRequired } from '../features/email-verification/components/verification-required.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// The "Asked for" board (decision 066): what students of your campus need, and your own asks with
// their offers. `?ask=1` opens the Ask form (from an empty search, Browse or Home), `title` and
// `category` fill it in.

export default function AsksRoute() {
  return (
    <AuthGuard>
      <AsksPage />
    </AuthGuard>
  );
}

function AsksPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Asked for`);
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const asking = params.get('ask') === '1';
  const category = params.get('category') ?? '';
  const setAsking = (open: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (open) next.set('ask', '1');
        else for (const name of ['ask', 'title', 'category']) next.delete(name);
        return next;
      },
      { replace: true },
    );
  if (!user) return null;
  const today = campusToday(DEFAULT_CAMPUS_TIME_ZONE).date;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">
            <Trans>Asked for</Trans>
          </h1>
          <p className="mt-1 text-muted">
            <Trans>
              What students of your campus need. Have one? Offer it and they can reserve it at once.
            </Trans>
          </p>
        </div>
        {!asking && (
          <Button onClick={() => setAsking(true)}>
            <Megaphone className="h-5 w-5" aria-hidden="true" />
            <Trans>Ask your campus</Trans>
          </Button>
        )}
      </div>
      {asking && (
        <Card className="mt-6 p-4 sm:p-6">
          <h2 className="text-xl font-semibold text-ink">
            <Trans>Ask your campus</Trans>
          </h2>
          <p className="mb-4 mt-1 text-sm text-muted">
            <Trans>
              Tell your neighbours what you need and when. Those who have one can offer it to you.
            </Trans>
          </p>
          {user.isVerified ? (
            <AskForm
              initialTitle={params.get('title') ?? ''}
              initialCategory={
                (CATEGORIES as readonly string[]).includes(category) ? (category as Category) : ''
              }
              today={today}
              onDone={() => setAsking(false)}
              onCancel={() => setAsking(false)}
            />
          ) : (
            <VerificationRequired email={user.email} action="ask your campus" />
          )}
        </Card>
      )}
      <div className="mt-8">
        <AskBoard userId={user.id} />
      </div>
    </div>
  );
}
