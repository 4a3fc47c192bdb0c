import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDownLeft, ArrowLeft, ArrowUpRight, Clock, Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { toCents } from '#shared/booking/pricing.ts';
import { formatMoney, intlLocale } from '#shared/format.ts';
import type { BillingEntry } from '#shared/schemas/payments.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { type BillingTone, billingLabel } from '../features/payments/billing-labels.ts';
import { useBillingHistory } from '../features/payments/queries.ts';
import { cn } from '../lib/cn.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// Spec §2 Billing History: every payment, earning and refund of the signed-in person, newest first.

export default function BillingHistoryRoute() {
  return (
    <AuthGuard>
      <BillingHistoryPage />
    </AuthGuard>
  );
}

/**
 * Spec §2 gives a colour per status, a back arrow for a refund; each row also names what it did to the
 * money (billing-labels.ts): Paid / Earned / Refunded / Held, with signs (decision 025).
 */
const toneStyles: Record<BillingTone, { badge: string; amount: string; icon?: ReactNode }> = {
  paid: {
    badge: 'bg-stone-200 text-stone-900',
    amount: 'text-ink',
    icon: <ArrowUpRight aria-hidden="true" />,
  },
  earned: {
    badge: 'bg-green-100 text-green-900',
    amount: 'text-green-800',
    icon: <ArrowDownLeft aria-hidden="true" />,
  },
  refunded: {
    badge: 'bg-blue-100 text-blue-900',
    amount: 'text-blue-800',
    icon: <ArrowLeft aria-hidden="true" />,
  },
  held: {
    badge: 'bg-amber-100 text-amber-900',
    amount: 'text-amber-900',
    icon: <Clock aria-hidden="true" />,
  },
  neutral: { badge: 'bg-stone-100 text-stone-800', amount: 'text-stone-600 line-through' },
  failed: { badge: 'bg-red-100 text-red-800', amount: 'text-red-800' },
};

function BillingHistoryPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Billing History`);
  const { data: transactions = [], isPending, isError, refetch } = useBillingHistory();

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link
        to={paths.profile()}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:text-brand-800 hover:underline"
      >
        <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
        <Trans>Back to Profile</Trans>
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">
        <Trans>Billing History</Trans>
      </h1>
      <p className="mt-1 text-muted">
        <Trans>Your payments, earnings and refunds</Trans>
      </p>

      <div className="mt-6">
        {isPending ? (
          <div className="space-y-3" role="status">
            <span className="sr-only">
              <Trans>Loading your billing history...</Trans>
            </span>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-32 w-full rounded-2xl" />
            ))}
          </div>
        ) : isError ? (
          <Card role="alert" className="px-6 py-10 text-center">
            <p className="font-semibold text-ink">
              <Trans>Your billing history could not be loaded.</Trans>
            </p>
            <Button variant="outline" className="mt-4" onClick={() => void refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Card>
        ) : transactions.length === 0 ? (
          <EmptyHistory />
        ) : (
          <ul className="space-y-3">
            {transactions.map((entry) => (
              <li key={entry.id}>
                <TransactionCard entry={entry} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function TransactionCard({ entry }: { entry: BillingEntry }) {
  const { t, i18n } = useLingui();
  const what = billingLabel(entry, i18n);
  const tone = toneStyles[what.tone];
  const paymentId = entry.stripePaymentIntentId?.slice(-8);
  const created = new Date(entry.createdAt);
  const day = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(created);
  const time = new Intl.DateTimeFormat(intlLocale(), { timeStyle: 'short' }).format(created);
  // The provider's kind of payment method ('card'); the one we know is said in the page's language.
  const method = entry.paymentMethodType === 'card' ? t`card` : entry.paymentMethodType;
  const last4 = entry.paymentMethodLast4;
  const refundId = entry.refundId?.slice(-8);
  const via = !method ? t`Payment` : last4 ? t`Via ${method} •••• ${last4}` : t`Via ${method}`;
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <h2 className="font-semibold break-words text-ink">{entry.description}</h2>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span
              className={cn(
                'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold [&_svg]:h-3.5 [&_svg]:w-3.5',
                tone.badge,
              )}
            >
              {tone.icon}
              {what.label}
            </span>
            <time dateTime={entry.createdAt} className="text-sm text-muted">
              {t`${day} at ${time}`}
            </time>
          </div>
          {entry.kind === 'refund' ? (
            <p className="text-sm text-muted">
              {refundId ? (
                <Trans>
                  Refund ID: <span className="font-mono text-stone-700">{refundId}</span>
                </Trans>
              ) : (
                <Trans>Refund ID: given once the refund is made</Trans>
              )}
            </p>
          ) : null}
          {paymentId && (
            <p className="text-sm text-muted">
              <Trans>
                Payment ID: <span className="font-mono text-stone-700">{paymentId}</span>
              </Trans>
            </p>
          )}
        </div>
        <div className="flex shrink-0 items-baseline justify-between gap-3 border-t border-line pt-3 sm:block sm:border-0 sm:pt-0 sm:text-end">
          <p className={cn('text-xl font-bold tabular-nums', tone.amount)}>
            {what.sign}
            {formatMoney(toCents(entry.amount) ?? 0)}
          </p>
          <p className="text-sm text-muted">{what.detail}</p>
          {entry.kind !== 'earning' && <p className="text-sm text-muted">{via}</p>}
        </div>
      </div>
    </Card>
  );
}

function EmptyHistory() {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Receipt className="h-6 w-6" aria-hidden="true" />
      </span>
      <h2 className="mt-3 text-lg font-semibold text-ink">
        <Trans>No billing history</Trans>
      </h2>
      <p className="mt-1 max-w-sm text-muted">
        <Trans>Your transaction history will appear here once you start borrowing or lending items.</Trans>
      </p>
      <Button asChild className="mt-5">
        <Link to={paths.browse}>
          <Trans>Browse Items</Trans>
        </Link>
      </Button>
    </Card>
  );
}
