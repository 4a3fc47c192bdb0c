import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDownLeft, ArrowLeft, ArrowUpRight, ChevronDown, Clock, Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { toCents } from '#shared/booking/pricing.ts';
import { formatMoney, intlLocale } from '#shared/format.ts';
import type { BillingEntry } from '#shared/schemas/payments.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { type BillingTone, billingLabel } from '../features/payments/billing-labels.ts';
import { useBillingHistory } from '../features/payments/queries.ts';
import { useReservations } from '../features/reservations/queries.ts';
import { cn } from '../lib/cn.ts';
import { formatDate } from '../lib/item-labels.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// Spec §2 Billing History: every payment, earning and refund of the signed-in person, newest first,
// grouped by booking (the item and its dates as the group's heading), in plain words first; the
// provider's ids wait behind a details toggle for the rare talk with support.

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
  // The group headings' item and dates; the rows show without them while these load.
  const { data: reservations = [] } = useReservations();
  const bookings = new Map(reservations.map((r) => [r.id, r]));

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
          <div className="space-y-4">
            {byBooking(transactions).map((group) => (
              <BookingGroup
                key={group.reservationId ?? 'other'}
                reservation={group.reservationId ? bookings.get(group.reservationId) : undefined}
                hasBooking={group.reservationId !== null}
                entries={group.entries}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

interface BookingEntries {
  reservationId: string | null;
  entries: BillingEntry[];
}

/** The entries by booking, the booking with the newest entry first; those of no booking last. */
function byBooking(entries: readonly BillingEntry[]): BookingEntries[] {
  const groups = new Map<string | null, BillingEntry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.reservationId);
    if (list) list.push(entry);
    else groups.set(entry.reservationId, [entry]);
  }
  const all = [...groups].map(([reservationId, list]) => ({ reservationId, entries: list }));
  return [...all.filter((g) => g.reservationId !== null), ...all.filter((g) => g.reservationId === null)];
}

function BookingGroup({
  reservation,
  hasBooking,
  entries,
}: {
  reservation: Reservation | undefined;
  hasBooking: boolean;
  entries: BillingEntry[];
}) {
  const title = reservation?.item.title.trim();
  const start = reservation ? formatDate(reservation.startDate, 'MMM d') : '';
  const end = reservation ? formatDate(reservation.endDate, 'MMM d, yyyy') : '';
  return (
    <Card className="overflow-hidden p-0">
      <section aria-label={title || undefined}>
        <header className="border-b border-line bg-stone-50 px-4 py-3 sm:px-5">
          <h2 className="font-semibold break-words text-ink">
            {title ? title : hasBooking ? <Trans>A booking</Trans> : <Trans>Other payments</Trans>}
          </h2>
          {reservation && (
            <p className="text-sm text-muted">
              {start === end ? (
                end
              ) : (
                <Trans>
                  {start} to {end}
                </Trans>
              )}
            </p>
          )}
        </header>
        <ul className="divide-y divide-line">
          {entries.map((entry) => (
            <li key={entry.id}>
              <BillingRow entry={entry} />
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}

function BillingRow({ entry }: { entry: BillingEntry }) {
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
  // Only a payment names the card it used; a refund goes back to the same card.
  const via =
    entry.kind === 'payment' && method ? (last4 ? t`Via ${method} •••• ${last4}` : t`Via ${method}`) : null;
  const description = entry.description;
  // The payment's service fee (decision 055), its own line under the description.
  const serviceFee = entry.serviceFee ? formatMoney(toCents(entry.serviceFee) ?? 0) : null;
  return (
    <div className="px-4 py-3 sm:px-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 className="font-medium break-words text-ink">{description}</h3>
          <p className="text-sm text-stone-700">{what.detail}</p>
          {serviceFee && (
            <p className="text-sm text-stone-700">
              <Trans>Includes a {serviceFee} service fee</Trans>
            </p>
          )}
        </div>
        <p className={cn('shrink-0 whitespace-nowrap text-lg font-bold tabular-nums', tone.amount)}>
          {what.sign}
          {formatMoney(toCents(entry.amount) ?? 0)}
        </p>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
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
      {(via || paymentId || entry.kind === 'refund') && (
        <details className="group mt-2 text-sm">
          <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1 rounded-md font-semibold text-brand-700 hover:underline [&::-webkit-details-marker]:hidden">
            <ChevronDown className="h-4 w-4 transition-transform group-open:rotate-180" aria-hidden="true" />
            <Trans>Details</Trans>{' '}
            <span className="sr-only">
              <Trans>for {description}</Trans>
            </span>
          </summary>
          <ul className="mt-1 space-y-1 text-muted">
            {via && <li>{via}</li>}
            {entry.kind === 'refund' &&
              (refundId ? (
                <li>
                  <Trans>
                    Refund ID: <span className="font-mono text-stone-700">{refundId}</span>
                  </Trans>
                </li>
              ) : (
                <li>
                  <Trans>Refund ID: given once the refund is made</Trans>
                </li>
              ))}
            {paymentId && (
              <li>
                <Trans>
                  Payment ID: <span className="font-mono text-stone-700">{paymentId}</span>
                </Trans>
              </li>
            )}
          </ul>
        </details>
      )}
    </div>
  );
}

function EmptyHistory() {
  return (
    <EmptyState
      icon={Receipt}
      title={<Trans>No billing history</Trans>}
      action={{ to: paths.browse, label: <Trans>Browse Items</Trans> }}
    >
      <Trans>Your transaction history will appear here once you start borrowing or lending items.</Trans>
    </EmptyState>
  );
}
