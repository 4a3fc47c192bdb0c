import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { CardSetupForm, usePaymentMethods } from '../../payments/api.ts';
import { useFixCard } from '../queries.ts';

// The borrower's way to fix a refused hold (decision 062): the card form and its schemas load only when
// a card actually needs fixing, never with every reservation card.

export function FixCard({ reservation: r, by }: { reservation: Reservation; by: string }) {
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
