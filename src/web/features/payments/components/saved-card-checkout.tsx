import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CreditCard, Loader2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import type { SavedPaymentMethod } from '#shared/schemas/payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api.ts';
import { cn } from '../../../lib/cn.ts';
import { payWithSavedCard, useClientConfig, usePaymentMethods } from '../queries.ts';
import {
  CardFormSkeleton,
  CardPaymentForm,
  type CardPaymentFormProps,
  isRefusedCard,
  refusedCardMessage,
  stripeFor,
} from './card-payment-form.tsx';

// The Payment Methods page promises saved cards make borrowing faster, so checkout offers
// them: the default card is chosen, Pay charges it without typing it again; 'Use a new card' shows the
// card form as before. One press of Pay at a time (busy), and the server confirms an intent once
// however often it is asked (payments/service.ts payWithSavedCard).

const cardName = (m: SavedPaymentMethod, i18n: I18n) =>
  `${(m.brand ?? i18n._(msg`Card`)).toUpperCase()} •••• ${m.last4 ?? '????'}`;

const expiry = (m: SavedPaymentMethod, i18n: I18n) => {
  if (!m.expiryMonth || !m.expiryYear) return '';
  const date = `${String(m.expiryMonth).padStart(2, '0')}/${m.expiryYear}`;
  return i18n._(msg`Expires ${date}`);
};

export function SavedCardCheckout(props: CardPaymentFormProps) {
  const methods = usePaymentMethods();
  const cards = methods.data ?? [];
  // Not the card form while the saved cards load: it would be swapped away under the typing.
  if (methods.isPending) return <CardFormSkeleton />;
  // None, or they could not be loaded: the card form works without them.
  if (cards.length === 0) return <CardPaymentForm {...props} />;
  return <SavedCardChoice cards={cards} {...props} />;
}

function SavedCardChoice({
  cards,
  clientSecret,
  paymentIntentId,
  submitLabel,
  onConfirmed,
  onError,
}: CardPaymentFormProps & { cards: SavedPaymentMethod[] }) {
  const { i18n } = useLingui();
  const ids = useId();
  const config = useClientConfig();
  const initial = cards.find((m) => m.isDefault) ?? cards[0]!;
  const [choice, setChoice] = useState<string>(initial.id);
  const [busy, setBusy] = useState(false);
  /** A refused card's reason, under the cards: another card or a new one can be chosen. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const choose = (id: string) => {
    setChoice(id);
    setRefusal(null);
  };

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      const result = await payWithSavedCard(paymentIntentId, choice);
      if (result.nextActionUrl) {
        // The test bank's 3-D Secure page; it comes back to /reservations (spec §4).
        window.location.assign(result.nextActionUrl);
        return;
      }
      if (result.status === 'requires_action' && config.data?.publishableKey) {
        // Stripe's bank check for a saved card runs in the page.
        const stripe = await stripeFor(config.data.publishableKey);
        const next = await stripe?.handleNextAction({ clientSecret });
        if (!next || next.error) {
          setRefusal(refusedCardMessage(next?.error?.message ?? '', i18n));
          onError(next?.error?.message ?? '', true);
          return;
        }
      }
      onConfirmed();
    } catch (error) {
      const reason = error instanceof ApiError ? error.message : '';
      const refused = isRefusedCard(error);
      if (refused) setRefusal(refusedCardMessage(reason, i18n));
      onError(reason, refused);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4">
      <fieldset aria-describedby={refusal ? `${ids}-refusal` : undefined}>
        <legend className="text-sm font-semibold text-ink">
          <Trans>Pay with</Trans>
        </legend>
        <div className="mt-2 space-y-2">
          {[...cards]
            .sort((a, b) => Number(b.isDefault) - Number(a.isDefault))
            .map((m) => (
              <Choice
                key={m.id}
                id={`${ids}-${m.id}`}
                name={`${ids}-card`}
                checked={choice === m.id}
                onChange={() => choose(m.id)}
                disabled={busy}
              >
                <CreditCard className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
                <span className="min-w-0">
                  <span className="block font-semibold text-ink">
                    {cardName(m, i18n)}
                    {m.isDefault && (
                      <>
                        {' '}
                        <span className="ms-1 text-xs font-bold text-brand-700">
                          <Trans>Default</Trans>
                        </span>
                      </>
                    )}
                  </span>
                  <span className="block text-xs text-muted">{expiry(m, i18n)}</span>
                </span>
              </Choice>
            ))}
          <Choice
            id={`${ids}-new`}
            name={`${ids}-card`}
            checked={choice === 'new'}
            onChange={() => choose('new')}
            disabled={busy}
          >
            <span className="font-semibold text-ink">
              <Trans>Use a new card</Trans>
            </span>
          </Choice>
        </div>
        {refusal && (
          <p id={`${ids}-refusal`} role="alert" className="mt-2 text-sm font-medium text-danger">
            {refusal}
          </p>
        )}
      </fieldset>
      {choice === 'new' ? (
        <CardPaymentForm
          clientSecret={clientSecret}
          paymentIntentId={paymentIntentId}
          submitLabel={submitLabel}
          onConfirmed={onConfirmed}
          onError={onError}
        />
      ) : (
        <form onSubmit={pay}>
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? (
              <>
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
                <Trans>Processing...</Trans>
              </>
            ) : (
              submitLabel
            )}
          </Button>
        </form>
      )}
    </div>
  );
}

function Choice({
  id,
  name,
  checked,
  onChange,
  disabled,
  children,
}: {
  id: string;
  name: string;
  checked: boolean;
  onChange: () => void;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border px-3 py-2',
        checked ? 'border-brand-600 bg-brand-50' : 'border-line hover:bg-stone-50',
      )}
    >
      <input
        id={id}
        type="radio"
        name={name}
        checked={checked}
        onChange={onChange}
        disabled={disabled}
        className="h-5 w-5 shrink-0 accent-brand-700"
      />
      {children}
    </label>
  );
}
