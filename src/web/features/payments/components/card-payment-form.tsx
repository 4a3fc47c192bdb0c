import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Loader2, Lock } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type TestCard, testCard } from '#shared/schemas/payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatExpiry, groupDigits, parseExpiry } from '../card-fields.ts';
import { confirmTestPayment, useClientConfig } from '../queries.ts';

// The card form of the Reserve dialog (spec §4): it authorises a PaymentIntent. With Stripe it is
// Stripe Elements (card data never touches our server); with the built-in test provider it is a
// plain form whose card goes to the test provider's confirm call, the way Stripe.js would send it.

/**
 * A payment that did not go through: the provider's reason (may be empty), and whether the form already
 * shows it beside the card (a refused card, said under the card field and announced): then a toast
 * would only repeat it, and on a phone cover the form the person is about to correct.
 */
export type CardError = (message: string, shownInForm: boolean) => void;

export interface CardPaymentFormProps {
  clientSecret: string;
  paymentIntentId: string;
  submitLabel: string;
  onConfirmed(): void;
  onError: CardError;
}

export function CardPaymentForm({
  clientSecret,
  paymentIntentId,
  submitLabel,
  onConfirmed,
  onError,
}: CardPaymentFormProps) {
  const config = useClientConfig();
  if (config.isPending) return <CardFormSkeleton />;
  if (config.isError) return <CardFormUnavailable onRetry={() => void config.refetch()} />;
  if (config.data.provider === 'stripe' && config.data.publishableKey) {
    return (
      <StripeCardForm
        kind="payment"
        publishableKey={config.data.publishableKey}
        clientSecret={clientSecret}
        submitLabel={submitLabel}
        onConfirmed={onConfirmed}
        onError={onError}
      />
    );
  }
  return (
    <TestCardForm
      submitLabel={submitLabel}
      onSubmit={async (card) => {
        const confirmed = await confirmTestPayment(paymentIntentId, card);
        // The bank wants the cardholder to authenticate (3-D Secure): off to its page, which sends
        // the browser back to /reservations to finish the request (spec §4's return address).
        if (confirmed.nextActionUrl) window.location.assign(confirmed.nextActionUrl);
        else onConfirmed();
      }}
      onError={onError}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Stripe Elements

const stripeByKey = new Map<string, Promise<Stripe | null>>();

/** Stripe.js is fetched from js.stripe.com only when a Stripe form first shows, once per key. */
export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

const appearance: StripeElementsOptions['appearance'] = {
  theme: 'stripe',
  variables: { colorPrimary: '#047857', colorDanger: '#b91c1c', borderRadius: '8px' },
};

/**
 * Stripe's Payment Element for a PaymentIntent ('payment') or a SetupIntent ('setup'). Confirms in
 * the page when it can (`redirect: 'if_required'`); a bank that needs a redirect comes back to
 * the page the user was on.
 */
export function StripeCardForm({
  kind,
  publishableKey,
  clientSecret,
  submitLabel,
  onConfirmed,
  onError,
}: {
  kind: 'payment' | 'setup';
  publishableKey: string;
  clientSecret: string;
  submitLabel: string;
  onConfirmed(): void | Promise<void>;
  onError: CardError;
}) {
  // Stripe writes its own fields and messages in the app's language.
  const { i18n } = useLingui();
  const locale = i18n.locale === 'es' ? 'es' : 'en';
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret, appearance, locale }}>
      <StripeConfirm kind={kind} submitLabel={submitLabel} onConfirmed={onConfirmed} onError={onError} />
    </Elements>
  );
}

function StripeConfirm({
  kind,
  submitLabel,
  onConfirmed,
  onError,
}: {
  kind: 'payment' | 'setup';
  submitLabel: string;
  onConfirmed(): void | Promise<void>;
  onError: CardError;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const { i18n } = useLingui();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  /** A refused card's reason, under the card fields (Stripe shows only its own field checks). */
  const [refusal, setRefusal] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      const returnUrl = `${window.location.origin}${kind === 'payment' ? '/reservations' : '/payment-methods'}`;
      const result =
        kind === 'payment'
          ? await stripe.confirmPayment({
              elements,
              redirect: 'if_required',
              confirmParams: { return_url: returnUrl },
            })
          : await stripe.confirmSetup({
              elements,
              redirect: 'if_required',
              confirmParams: { return_url: returnUrl },
            });
      if (result.error) {
        const refused = result.error.type === 'card_error';
        if (refused) setRefusal(refusedCardMessage(result.error.message ?? '', i18n));
        onError(result.error.message ?? '', refused);
      } else await onConfirmed();
    } catch (error) {
      onError(error instanceof Error ? error.message : '', false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      {!ready && <Skeleton className="h-40 w-full" />}
      <PaymentElement onReady={() => setReady(true)} onChange={() => setRefusal(null)} />
      {refusal && (
        <p role="alert" className="text-sm font-medium text-danger">
          {refusal}
        </p>
      )}
      <SubmitButton busy={busy} disabled={!stripe || !elements || !ready} label={submitLabel} />
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// The built-in test provider's card form

type CardField = 'number' | 'expiry' | 'cvc';

const fieldOfPath: Record<string, CardField> = {
  number: 'number',
  expMonth: 'expiry',
  expYear: 'expiry',
  cvc: 'cvc',
};

/** Checks the card with the server's own schema; answers the card or the first message per field. */
function checkCard(
  values: Record<CardField, string>,
  i18n: I18n,
): { card: TestCard } | { errors: Partial<Record<CardField, string>> } {
  const errors: Partial<Record<CardField, string>> = {};
  const expiry = parseExpiry(values.expiry);
  if (!values.expiry.trim()) errors.expiry = i18n._(msg`Expiry date is required`);
  else if (!expiry) errors.expiry = i18n._(msg`Enter the expiry date as MM / YY`);
  const card = {
    number: values.number,
    cvc: values.cvc,
    expMonth: expiry?.expMonth ?? 1,
    expYear: expiry?.expYear ?? 2000,
  };
  if (!values.number.trim()) errors.number = i18n._(msg`Card number is required`);
  if (!values.cvc.trim()) errors.cvc = i18n._(msg`CVC is required`);
  const parsed = testCard.safeParse(card);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath[String(issue.path[0])];
      if (field && !errors[field] && (field !== 'expiry' || expiry)) errors[field] = issue.message;
    }
  }
  return Object.keys(errors).length ? { errors } : { card };
}

/** The provider refused the card (402, as Stripe answers a decline), not the network or the server. */
export const isRefusedCard = (error: unknown) => error instanceof ApiError && error.status === 402;

/** Why a card was refused, and what to do: under the card field, so the dialog stays usable. */
export function refusedCardMessage(reason: string, i18n: I18n): string {
  return reason
    ? i18n._(msg`${reason} Try another card.`)
    : i18n._(msg`The card was not accepted. Try another card.`);
}

/** The test provider's card fields; `onSubmit` throws an ApiError when the provider refuses the card. */
export function TestCardForm({
  submitLabel,
  onSubmit,
  onError,
  footer,
}: {
  submitLabel: string;
  onSubmit(card: TestCard): Promise<void>;
  onError: CardError;
  footer?: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState<Record<CardField, string>>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const [busy, setBusy] = useState(false);
  const backToNumber = useRef(false);
  useEffect(() => {
    if (busy || !backToNumber.current) return;
    backToNumber.current = false;
    const number = document.getElementById('card-number') as HTMLInputElement | null;
    number?.focus();
    number?.select();
  }, [busy]);

  const set = (field: CardField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = checkCard(values, i18n);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(checked.card);
    } catch (error) {
      // Field problems the server found go next to their fields; a refused card to the caller.
      const fieldErrors: Partial<Record<CardField, string>> = {};
      if (error instanceof ApiError && error.status === 400) {
        for (const issue of error.issues ?? []) {
          const field = fieldOfPath[issue.path.replace(/^card\./, '')];
          if (field) fieldErrors[field] ??= issue.message;
        }
      }
      if (Object.keys(fieldErrors).length) setErrors(fieldErrors);
      else {
        // A refused card: the provider's reason under the card number, tied to it for screen readers,
        // and the form stays for another card.
        const reason = error instanceof ApiError ? error.message : '';
        const refused = isRefusedCard(error);
        if (refused) setErrors({ number: refusedCardMessage(reason, i18n) });
        onError(reason, refused);
        // Put the person back on the card to try another, its number selected so typing replaces it:
        // once the fields, disabled while waiting, are enabled again (the effect below).
        backToNumber.current = true;
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <p id="test-card-hint">
          <Trans>Test mode: use 4242 4242 4242 4242, any future date and any CVC</Trans>
        </p>
      </div>
      <Field id="card-number" label={t`Card number`} error={errors.number}>
        <Input
          {...describedBy('card-number', errors.number)}
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          value={values.number}
          onChange={(e) => set('number', groupDigits(e.target.value))}
          disabled={busy}
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field id="card-expiry" label={t`Expiry (MM / YY)`} error={errors.expiry}>
          <Input
            {...describedBy('card-expiry', errors.expiry)}
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t`MM / YY`}
            maxLength={7}
            value={values.expiry}
            onChange={(e) => set('expiry', formatExpiry(e.target.value))}
            disabled={busy}
          />
        </Field>
        <Field id="card-cvc" label={t`CVC`} error={errors.cvc}>
          <Input
            {...describedBy('card-cvc', errors.cvc)}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={values.cvc}
            onChange={(e) => set('cvc', e.target.value.replace(/\D/g, ''))}
            disabled={busy}
          />
        </Field>
      </div>
      {footer}
      <SubmitButton busy={busy} label={submitLabel} />
    </form>
  );
}

// ---------------------------------------------------------------------------------------------

function SubmitButton({ busy, disabled, label }: { busy: boolean; disabled?: boolean; label: string }) {
  return (
    // A toast never covers it (the toast area moves out of its way).
    <Button type="submit" size="lg" className="w-full" disabled={busy || disabled} data-toast-avoid="">
      {busy ? (
        <>
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          <Trans>Processing...</Trans>
        </>
      ) : (
        label
      )}
    </Button>
  );
}

export function CardFormSkeleton() {
  return (
    <div className="space-y-4" role="status">
      <span className="sr-only">
        <Trans>Loading the card form...</Trans>
      </span>
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-11 w-full" />
      <div className="grid grid-cols-2 gap-3">
        <Skeleton className="h-11" />
        <Skeleton className="h-11" />
      </div>
      <Skeleton className="h-12 w-full" />
    </div>
  );
}

export function CardFormUnavailable({ onRetry }: { onRetry(): void }) {
  return (
    <div
      role="alert"
      className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-danger"
    >
      <p>
        <Trans>The card form could not be loaded. Check your connection and try again.</Trans>
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}
