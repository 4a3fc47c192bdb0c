import { format } from 'date-fns';
import { ArrowLeft, Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { BillingStatus } from '#shared/constants.ts';
import { formatMoney } from '#shared/format.ts';
import { toCents } from '#shared/pricing.ts';
import type { BillingEntry } from '#shared/schemas/payments.ts';
import { AuthGuard } from '../components/layout/auth-guard.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useBillingHistory } from '../features/payments/api.ts';
import { cn } from '../lib/cn.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// Spec §2 Billing History: every payment, earning and refund of the signed-in person, newest first.

export default function BillingHistoryRoute() {
  return (
    <AuthGuard>
      <BillingHistoryPage />
    </AuthGuard>
  );
}

/** Spec §2: a colour per status; a refund carries a back arrow. */
const statusStyles: Record<BillingStatus, { label: string; className: string; icon?: ReactNode }> = {
  completed: { label: 'Completed', className: 'bg-green-100 text-green-800' },
  pending: { label: 'Pending', className: 'bg-yellow-100 text-yellow-900' },
  failed: { label: 'Failed', className: 'bg-red-100 text-red-800' },
  refunded: {
    label: 'Refunded',
    className: 'bg-blue-100 text-blue-800',
    icon: <ArrowLeft aria-hidden="true" />,
  },
};

function BillingHistoryPage() {
  useDocumentTitle('Billing History');
  const { data: transactions = [], isPending, isError, refetch } = useBillingHistory();

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link
        to={paths.profile()}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:text-brand-800 hover:underline"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        Back to Profile
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">Billing History</h1>
      <p className="mt-1 text-muted">Your payments, earnings and refunds</p>

      <div className="mt-6">
        {isPending ? (
          <div className="space-y-3" role="status">
            <span className="sr-only">Loading your billing history...</span>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-32 w-full rounded-2xl" />
            ))}
          </div>
        ) : isError ? (
          <Card role="alert" className="px-6 py-10 text-center">
            <p className="font-semibold text-ink">Your billing history could not be loaded.</p>
            <Button variant="outline" className="mt-4" onClick={() => void refetch()}>
              Try again
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
  const status = statusStyles[entry.status];
  const paymentId = entry.stripePaymentIntentId?.slice(-8);
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <h2 className="font-semibold break-words text-ink">{entry.description}</h2>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span
              className={cn(
                'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold [&_svg]:h-3.5 [&_svg]:w-3.5',
                status.className,
              )}
            >
              {status.icon}
              {status.label}
            </span>
            <time dateTime={entry.createdAt} className="text-sm text-muted">
              {format(new Date(entry.createdAt), "MMM d, yyyy 'at' h:mm a")}
            </time>
          </div>
          {paymentId && (
            <p className="text-sm text-muted">
              Payment ID: <span className="font-mono text-stone-700">{paymentId}</span>
            </p>
          )}
        </div>
        <div className="flex shrink-0 items-baseline justify-between gap-3 border-t border-line pt-3 sm:block sm:border-0 sm:pt-0 sm:text-right">
          <p className="text-xl font-bold text-ink">{formatMoney(toCents(entry.amount) ?? 0)}</p>
          <p className="text-sm text-muted">
            {entry.paymentMethodType ? `Via ${entry.paymentMethodType}` : 'Payment'}
          </p>
          {entry.refundAmount && entry.status !== 'refunded' && (
            <p className="text-sm text-blue-800">Refunded {formatMoney(toCents(entry.refundAmount) ?? 0)}</p>
          )}
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
      <h2 className="mt-3 text-lg font-semibold text-ink">No billing history</h2>
      <p className="mt-1 max-w-sm text-muted">
        Your transaction history will appear here once you start borrowing or lending items.
      </p>
      <Button asChild className="mt-5">
        <Link to={paths.browse}>Browse Items</Link>
      </Button>
    </Card>
  );
}
