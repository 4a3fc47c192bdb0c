import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import type { SavedPaymentMethod } from '#shared/schemas/payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { confirmTestSetup, useClientConfig, useCreateSetupIntent, useSavePaymentMethod } from '../queries.ts';
import {
  type CardError,
  CardFormSkeleton,
  CardFormUnavailable,
  StripeCardForm,
  TestCardForm,
} from './card-payment-form.tsx';

// Saving a card (spec §2 Payment Methods): a SetupIntent is made when the form opens, the card form
// confirms it (Stripe Elements, or the test provider's form), then the card joins the list.

export function CardSetupForm({
  submitLabel: label,
  onSaved,
  onError,
}: {
  submitLabel?: string;
  /** The saved card; null when Stripe's webhook had already saved it. */
  onSaved(method: SavedPaymentMethod | null): void;
  onError: CardError;
}) {
  const { t } = useLingui();
  const submitLabel = label ?? t`Save Card`;
  const config = useClientConfig();
  const setup = useCreateSetupIntent();
  const save = useSavePaymentMethod();
  const started = useRef(false);
  const { mutate: createSetup } = setup;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    createSetup();
  }, [createSetup]);

  const saveCard = async (setupIntentId: string) => {
    try {
      onSaved((await save.mutateAsync(setupIntentId)).paymentMethod);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CARD_ALREADY_SAVED') onSaved(null);
      else throw error;
    }
  };

  if (config.isError) return <CardFormUnavailable onRetry={() => void config.refetch()} />;
  if (setup.isError) {
    return (
      <div
        role="alert"
        className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-danger"
      >
        <p className="font-semibold">
          <Trans>Payment setup failed</Trans>
        </p>
        <p>{errorMessage(setup.error, t`Please try again.`)}</p>
        <Button variant="outline" size="sm" onClick={() => createSetup()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  if (config.isPending || !setup.data) return <CardFormSkeleton />;

  const { setupIntentId, clientSecret } = setup.data;
  if (config.data.provider === 'stripe' && config.data.publishableKey) {
    return (
      <StripeCardForm
        kind="setup"
        publishableKey={config.data.publishableKey}
        clientSecret={clientSecret}
        submitLabel={submitLabel}
        onConfirmed={async () => {
          try {
            await saveCard(setupIntentId);
          } catch (error) {
            onError(errorMessage(error, ''), false);
          }
        }}
        onError={onError}
      />
    );
  }
  return (
    <TestCardForm
      submitLabel={submitLabel}
      onSubmit={async (card) => {
        await confirmTestSetup(setupIntentId, card);
        await saveCard(setupIntentId);
      }}
      onError={onError}
    />
  );
}
