import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, ExternalLink, Loader2, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { toCents } from '#shared/booking/pricing.ts';
import type { PayoutAccountStatus, PayoutPurpose } from '#shared/constants.ts';
import { formatMoney } from '#shared/format.ts';
import type { PayoutTransferView } from '#shared/schemas/payouts.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useOpenDashboard, usePayouts } from '../features/payouts/api.ts';
import { errorMessage } from '../lib/api.ts';
import { cn } from '../lib/cn.ts';
import { formatTime } from '../lib/time-labels.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// A lender's earnings (decision 056): where their payouts stand, what they earned, what was sent to
// their Stripe account and what is on its way, and each booking's transfers in plain words.

export default function EarningsRoute() {
  return (
    <AuthGuard>
      <EarningsPage />
    </AuthGuard>
  );
}

/** What the account's status asks of the lender, when it is not active. */
const ACCOUNT_WORDS: Record<Exclude<PayoutAccountStatus, 'active'>, MessageDescriptor> = {
  not_set_up: msg`Set up payouts to accept paid requests and receive your earnings.`,
  in_review: msg`Stripe is checking your details. Your earnings wait until it is done.`,
  action_needed: msg`Stripe needs a few more details before it can send you money.`,
  restricted: msg`Stripe cannot send money to your account. Contact us and we will help.`,
};

function EarningsPage() {
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Earnings`);
  const { data, isPending, isError, refetch } = usePayouts();
  const dashboard = useOpenDashboard();
  const account = data?.account;

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link
        to={paths.profile()}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:text-brand-800 hover:underline"
      >
        <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
        <Trans>Back to Profile</Trans>
      </Link>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">
            <Trans>Earnings</Trans>
          </h1>
          <p className="mt-1 text-muted">
            <Trans>What you earned lending, and what was sent to your Stripe account</Trans>
          </p>
        </div>
        {account && account.status !== 'not_set_up' && (
          <Button variant="outline" onClick={() => dashboard.mutate()} disabled={dashboard.isPending}>
            {dashboard.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <ExternalLink className="h-4 w-4" aria-hidden="true" />
            )}
            <Trans>Open my Stripe dashboard</Trans>
          </Button>
        )}
      </div>
      {dashboard.error && (
        <p role="alert" className="mt-3 text-sm text-danger">
          {errorMessage(dashboard.error, t`Stripe could not be reached. Please try again.`)}
        </p>
      )}

      <div className="mt-6 space-y-6">
        {isPending ? (
          <div className="space-y-3" role="status">
            <span className="sr-only">
              <Trans>Loading your earnings...</Trans>
            </span>
            <Skeleton className="h-24 w-full rounded-2xl" />
            <Skeleton className="h-32 w-full rounded-2xl" />
          </div>
        ) : isError || !data || !account ? (
          <Card role="alert" className="px-6 py-10 text-center">
            <p className="font-semibold text-ink">
              <Trans>Your earnings could not be loaded.</Trans>
            </p>
            <Button variant="outline" className="mt-4" onClick={() => void refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Card>
        ) : (
          <>
            {account.status !== 'active' && (
              <Card
                role="region"
                aria-labelledby="payouts-needed"
                className="border-amber-300 bg-amber-50 p-5"
                data-testid="earnings-payouts-status"
              >
                <h2 id="payouts-needed" className="font-semibold text-ink">
                  {account.status === 'not_set_up' ? (
                    <Trans>Payouts are not set up</Trans>
                  ) : (
                    <Trans>Payouts are not active yet</Trans>
                  )}
                </h2>
                <p className="mt-1 text-sm text-stone-800">{i18n._(ACCOUNT_WORDS[account.status])}</p>
                {account.status !== 'restricted' && (
                  <Button asChild className="mt-3">
                    <Link to={paths.getPaid}>
                      {account.status === 'not_set_up' ? (
                        <Trans>Set up payouts</Trans>
                      ) : (
                        <Trans>Finish setting up payouts</Trans>
                      )}
                    </Link>
                  </Button>
                )}
              </Card>
            )}
            <Totals totals={data.totals} />
            {data.transfers.length === 0 ? (
              <EmptyEarnings />
            ) : (
              <section aria-labelledby="transfers-title">
                <h2 id="transfers-title" className="text-lg font-semibold text-ink">
                  <Trans>Payouts by booking</Trans>
                </h2>
                <Card className="mt-3 overflow-hidden p-0">
                  <ul className="divide-y divide-line" data-testid="earnings-transfers">
                    {data.transfers.map((transfer) => (
                      <li key={transfer.id}>
                        <TransferRow
                          transfer={transfer}
                          splitRental={data.transfers.some(
                            (other) =>
                              other.purpose === 'rental_secured' &&
                              other.reservationId !== null &&
                              other.reservationId === transfer.reservationId,
                          )}
                        />
                      </li>
                    ))}
                  </ul>
                </Card>
              </section>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function Totals({ totals }: { totals: { earned: string; sent: string; upcoming: string } }) {
  const { t } = useLingui();
  const figures = [
    { label: t`Earned`, value: totals.earned, hint: t`Your share of every paid borrow` },
    { label: t`Sent to Stripe`, value: totals.sent, hint: t`On its way to or in your bank` },
    { label: t`Upcoming`, value: totals.upcoming, hint: t`Earned and not sent yet` },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3" data-testid="earnings-totals">
      {figures.map((figure) => (
        <Card key={figure.label} className="p-4">
          <dt className="text-sm font-medium text-muted">{figure.label}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums text-ink">
            {formatMoney(toCents(figure.value) ?? 0)}
          </dd>
          <dd className="mt-0.5 text-xs text-muted">{figure.hint}</dd>
        </Card>
      ))}
    </dl>
  );
}

/** What a transfer pays, in words: a rental split in two parts says which part it is. */
function purposeWords(purpose: PayoutPurpose, splitRental: boolean): MessageDescriptor {
  switch (purpose) {
    case 'rental_secured':
      return msg`First part of the rental`;
    case 'rental_rest':
      return splitRental ? msg`The rest of the rental` : msg`The rental`;
    case 'deposit_kept':
      return msg`Kept from the deposit`;
  }
}

type Tone = 'waiting' | 'sent' | 'paid' | 'problem';
const TONE_STYLES: Record<Tone, string> = {
  waiting: 'bg-amber-100 text-amber-900',
  sent: 'bg-green-100 text-green-900',
  paid: 'bg-brand-50 text-brand-800',
  problem: 'bg-red-100 text-red-800',
};

/** Where the transfer stands, in the lender's words, with the day that matters. */
function useStatusWords(transfer: PayoutTransferView): { words: string; tone: Tone } {
  const { t } = useLingui();
  switch (transfer.status) {
    case 'scheduled': {
      const day = formatTime(transfer.releaseAt, 'date');
      return { words: t`Scheduled for ${day}`, tone: 'waiting' };
    }
    case 'waiting_account':
      return { words: t`Waiting for your payout details`, tone: 'waiting' };
    case 'sent': {
      if (transfer.paidOutAt) {
        const day = formatTime(transfer.paidOutAt, 'date');
        return { words: t`Paid to your bank ${day}`, tone: 'paid' };
      }
      const day = transfer.sentAt ? formatTime(transfer.sentAt, 'date') : '';
      return { words: day ? t`Sent ${day}` : t`Sent`, tone: 'sent' };
    }
    case 'reversed':
      return { words: t`Reversed`, tone: 'problem' };
    case 'failed':
      return { words: t`Failed`, tone: 'problem' };
    case 'cancelled':
      // The list leaves these out (nothing was left to send); said plainly if one ever shows.
      return { words: t`Nothing to send`, tone: 'waiting' };
  }
}

function TransferRow({ transfer, splitRental }: { transfer: PayoutTransferView; splitRental: boolean }) {
  const { i18n } = useLingui();
  const status = useStatusWords(transfer);
  const cents = toCents(transfer.amount) ?? 0;
  // A transfer's amount is decided when it is sent (what is certain then): before, there is no figure.
  const decided = transfer.status === 'sent' || transfer.status === 'reversed' || cents > 0;
  return (
    <div className="flex items-start justify-between gap-3 px-4 py-3 sm:px-5" data-testid="earnings-transfer">
      <div className="min-w-0 space-y-1">
        <h3 className="font-medium break-words text-ink">{transfer.itemTitle ?? <Trans>A booking</Trans>}</h3>
        <p className="text-sm text-stone-700">{i18n._(purposeWords(transfer.purpose, splitRental))}</p>
        <span
          className={cn(
            'inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold',
            TONE_STYLES[status.tone],
          )}
          data-testid="earnings-transfer-status"
        >
          {status.words}
        </span>
      </div>
      {decided ? (
        <p
          className={cn(
            'shrink-0 whitespace-nowrap text-lg font-bold tabular-nums',
            status.tone === 'problem' ? 'text-red-800' : 'text-ink',
          )}
        >
          {formatMoney(cents)}
        </p>
      ) : (
        <p className="shrink-0 text-end text-sm text-muted">
          <Trans>Amount set when sent</Trans>
        </p>
      )}
    </div>
  );
}

function EmptyEarnings() {
  return (
    <EmptyState
      icon={Wallet}
      title={<Trans>No earnings yet</Trans>}
      action={{ to: paths.listItem, label: <Trans>List an item</Trans> }}
    >
      <Trans>
        List an item with a price: when someone borrows it, your share shows here and goes to your bank.
      </Trans>
    </EmptyState>
  );
}
