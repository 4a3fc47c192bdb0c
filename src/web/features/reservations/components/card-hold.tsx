import { Trans, useLingui } from '@lingui/react/macro';
import { CreditCard } from 'lucide-react';
import { useId, useState } from 'react';
import type { PartyRole } from '#shared/booking/reservation-rules.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { CardSetupForm, usePaymentMethods } from '../../payments/api.ts';
import { dateTime } from '../dates.ts';
import { useFixCard } from '../queries.ts';

// Decision 062: a booking that starts far ahead had its card saved, not held. The card says when it is
// held and charged; when the bank refused that hold, the borrower confirms a saved card (the bank's
// 3-D Secure page follows when it asks) or adds another, by the deadline the server set.

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
    return <FixCard reservation={r} by={by} />;
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

function FixCard({ reservation: r, by }: { reservation: Reservation; by: string }) {
  const { t } = useLingui();
  const methods = usePaymentMethods();
  const fix = useFixCard(r.id);
  const [newCard, setNewCard] = useState(false);
  const cards = methods.data ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const choice = chosen ?? cards.find((c) => c.isDefault)?.id ?? cards[0]?.id ?? null;
  const headingId = useId();
  const authenticate = r.cardHold?.problem === 'authentication_required';
  return (
    <section
      aria-labelledby={headingId}
      className="mt-4 space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm"
    >
      <h3 id={headingId} className="font-semibold text-ink">
        {authenticate ? <Trans>Confirm your card</Trans> : <Trans>Your card was declined</Trans>}
      </h3>
      <p className="text-stone-800">
        {authenticate
          ? t`Your bank asks you to confirm this payment. Confirm it, or use another card, by ${by}, or the booking is cancelled.`
          : t`Your bank declined this payment. Use another card by ${by}, or the booking is cancelled.`}
      </p>
      {methods.isPending ? (
        <p role="status">{t`Loading your cards...`}</p>
      ) : newCard || cards.length === 0 ? (
        <CardSetupForm
          submitLabel={t`Save Card and Pay`}
          onSaved={(method) => {
            if (method) fix.mutate(method.id);
          }}
          onError={() => undefined}
        />
      ) : (
        <fieldset className="space-y-2">
          <legend className="sr-only">{t`Your saved cards`}</legend>
          {cards.map((card) => (
            <label key={card.id} className="flex items-center gap-2">
              <input
                type="radio"
                name={`card-${r.id}`}
                value={card.id}
                checked={choice === card.id}
                onChange={() => setChosen(card.id)}
                className="h-4 w-4 focus-visible:outline-2 focus-visible:outline-brand-700"
              />
              <span>
                {(card.brand ?? t`Card`).toUpperCase()} •••• {card.last4 ?? '????'}
              </span>
            </label>
          ))}
          <div className="flex flex-wrap gap-2 pt-1">
            <Button onClick={() => choice && fix.mutate(choice)} disabled={!choice || fix.isPending}>
              {fix.isPending ? t`Confirming...` : t`Confirm Card`}
            </Button>
            <Button variant="outline" onClick={() => setNewCard(true)}>
              <Trans>Use a new card</Trans>
            </Button>
          </div>
        </fieldset>
      )}
      {fix.isError && (
        <p role="alert" className="font-medium text-danger">
          {errorMessage(fix.error, t`Please try again.`)}
        </p>
      )}
    </section>
  );
}
