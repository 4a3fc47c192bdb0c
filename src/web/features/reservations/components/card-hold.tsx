import { useLingui } from '@lingui/react/macro';
import { CreditCard } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { PartyRole } from '#shared/booking/reservation-rules.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { dateTime } from '../dates.ts';

// Decision 062: a booking that starts far ahead had its card saved, not held. The card says when it is
// held and charged; when the bank refused that hold, the borrower confirms a saved card (the bank's
// 3-D Secure page follows when it asks) or adds another, by the deadline the server set.

const FixCard = lazy(() => import('./fix-card.tsx').then((m) => ({ default: m.FixCard })));

export function CardHoldNote({ reservation: r, role }: { reservation: Reservation; role: PartyRole }) {
  const { t } = useLingui();
  const hold = r.cardHold;
  if (!hold || !['pending', 'approved'].includes(r.status)) return null;
  const on = dateTime(hold.from, 'weekday');
  if (hold.problem && hold.fixBy) {
    const by = dateTime(hold.fixBy, 'weekday');
    if (role === 'provider') {
      const name = r.borrower.fullName;
      return (
        <p className="mt-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-950">
          {t`${name}'s card could not be charged yet. They have until ${by} to fix it, or the booking is cancelled.`}
        </p>
      );
    }
    return (
      <Suspense fallback={<p role="status" className="mt-4 text-sm">{t`Loading your cards...`}</p>}>
        <FixCard reservation={r} by={by} />
      </Suspense>
    );
  }
  if (hold.held) return null;
  const name = r.provider.fullName;
  return (
    <p className="mt-4 flex gap-2 rounded-xl bg-stone-50 p-3 text-sm text-stone-800">
      <CreditCard className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
      <span>
        {role === 'borrower'
          ? r.status === 'approved'
            ? t`Your saved card is charged on ${on}, a few days before the start.`
            : t`Your saved card is charged on ${on}, a few days before the start, if ${name} approves.`
          : t`The borrower's card is charged on ${on}, a few days before the start.`}
      </span>
    </p>
  );
}
