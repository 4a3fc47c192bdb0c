import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CalendarClock, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { OPEN_STATUSES } from '#shared/booking/reservation-rules.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../paths.ts';
import { useSession } from '../../auth/api.ts';
import { dayLabel, dayRange } from '../dates.ts';
import { useReservations } from '../queries.ts';
import { ReserveDialog } from './reserve-dialog.tsx';

// 'What happens next': a borrower who already asked for this item sees their request on the
// item page ('Requested Nov 27–29 · Pending'), with the way to it, instead of a fresh Reserve button.
// Other dates stay one tap away.

type ReservableItem = Parameters<typeof ReserveDialog>[0]['item'];

/** Still open by the shared state machine: something can happen from it. */
const OPEN = new Set<string>(OPEN_STATUSES);

/** What the item page says about the viewer's own request for the item. */
export function requestSummary(r: Pick<Reservation, 'status' | 'startDate' | 'endDate'>): {
  title: string;
  detail: string;
} {
  const days = dayRange(r.startDate, r.endDate);
  if (r.status === 'approved')
    return {
      title: t`Approved ${days} · Pickup code ready`,
      detail: t`Show your code from My Reservations at pickup`,
    };
  if (r.status === 'active') {
    const due = dayLabel(r.endDate, 'short');
    return { title: t`Borrowing ${days} · Active`, detail: t`Due back ${due}` };
  }
  // Back with the lender, or a deposit claim open.
  if (r.status === 'returned')
    return { title: t`Returned ${days}`, detail: t`Waiting for the lender to confirm: see My Reservations` };
  if (r.status === 'claimed' || r.status === 'disputed')
    return {
      title: r.status === 'claimed' ? t`Returned ${days} · Claim open` : t`Returned ${days} · In dispute`,
      detail: t`The deposit claim is in My Reservations`,
    };
  return {
    title: t`Requested ${days} · Pending`,
    detail: t`Waiting for the lender: see it in My Reservations`,
  };
}

/** The viewer's open requests for this item, the soonest first. */
export function openRequestsFor(
  reservations: readonly Reservation[] | undefined,
  itemId: string,
  userId: string,
): Reservation[] {
  return (reservations ?? [])
    .filter((r) => r.itemId === itemId && r.borrowerId === userId && OPEN.has(r.status))
    .sort((a, b) => a.startDate.localeCompare(b.startDate));
}

export function ReserveOrRequested({
  item,
  suggested = null,
}: {
  item: ReservableItem;
  /** Dates a waitlist said are free: the Reserve dialog starts on them. */
  suggested?: { startDate: string; endDate: string } | null;
}) {
  // Re-render in the active language: the lines below are written by requestSummary.
  const { t } = useLingui();
  const { user } = useSession();
  const reservations = useReservations(Boolean(user));
  if (user && reservations.isPending) return <Skeleton className="h-12 w-full rounded-lg" />;
  const mine = user ? openRequestsFor(reservations.data, item.id, user.id) : [];
  // One dialog in one place whatever the list says: the request it just sent adds a line above it,
  // and must not replace the dialog that is showing 'Request sent'.
  return (
    <div className={mine.length > 0 ? 'space-y-2 sm:col-span-2' : undefined}>
      {mine.length > 0 && (
        <ul className="space-y-2">
          {mine.map((r) => {
            const summary = requestSummary(r);
            return (
              <li key={r.id}>
                <Link
                  to={paths.reservations}
                  className="flex min-h-12 items-center gap-3 rounded-xl border border-yellow-300 bg-yellow-50 px-3 py-2 hover:bg-yellow-100"
                >
                  <CalendarClock className="h-5 w-5 shrink-0 text-yellow-900" aria-hidden="true" />
                  <span className="min-w-0 flex-1">
                    <span className="block font-semibold text-ink">{summary.title}</span>
                    <span className="block text-sm text-stone-700">{summary.detail}</span>
                  </span>
                  <ChevronRight
                    className="rtl:-scale-x-100 h-5 w-5 shrink-0 text-stone-600"
                    aria-hidden="true"
                  />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <ReserveDialog
        item={item}
        suggested={suggested}
        label={mine.length > 0 ? t`Reserve other dates` : t`Reserve Item`}
        variant={mine.length > 0 ? 'outline' : 'primary'}
      />
    </div>
  );
}
