import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CreditCard, Loader2, Scale } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { PaymentStepKind, PaymentStepPurpose } from '#shared/constants.ts';
import { intlLocale } from '#shared/format.ts';
import type { PaymentMismatchView, PaymentStepView } from '#shared/schemas/payment-steps.ts';
import { resolveMismatchInput } from '#shared/schemas/payment-steps.ts';
import {
  MoneyCaseHeader,
  MoneyList,
  MoneyListNotReady,
  PaymentIdFact,
  ProviderError,
} from '../../../components/moderator-money.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { usePaymentProblems, useResolveMismatch, useRetryPaymentStep } from '../api.ts';

// /admin/payments (decision 012): card provider calls that failed for good or are failing now, with
// their error and a Retry, and reconciliation findings (our billing rows against the provider) to close
// with a note of what was done.

/** Why the call was made, each a whole sentence so it translates. */
const PURPOSE_LABELS: Record<PaymentStepPurpose, MessageDescriptor> = {
  approval: msg`Because the lender approved`,
  deferred: msg`Because the booking starts soon (its saved card is held now)`,
  decline: msg`Because the lender declined`,
  cancellation: msg`Because the reservation was cancelled`,
  policy: msg`Because the borrower cancelled (refund by the item's policy)`,
  expiry: msg`Because the request expired`,
  overlap: msg`Because another request was approved for those dates`,
  deposit: msg`Because the item was returned (deposit)`,
  claim: msg`Because a deposit claim was settled (the rest of the deposit)`,
  early_return: msg`Because the item came back early (unused rental, by the item's policy)`,
  abandoned: msg`Because no request followed the payment`,
  support: msg`Because a refund made outside CampusLoop`,
};

/** 'Mar 5, 2026 at 3:04 PM', in the app's language. */
const when = (iso: string, i18n: I18n) => {
  const date = new Date(iso);
  const day = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(date);
  const time = new Intl.DateTimeFormat(intlLocale(), { timeStyle: 'short' }).format(date);
  return i18n._(msg`${day} at ${time}`);
};

export function PaymentProblems() {
  const { t } = useLingui();
  const problems = usePaymentProblems();
  if (problems.status !== 'success') {
    return (
      <MoneyListNotReady
        className="mt-6"
        cards={3}
        query={problems}
        loading={<Trans>Loading payments…</Trans>}
        failed={<Trans>Failed to load payments</Trans>}
      />
    );
  }
  const { steps, mismatches } = problems.data;
  const stepCount = steps.length;
  const mismatchCount = mismatches.length;
  return (
    <div className="mt-6 space-y-8">
      <MoneyList
        id="failing-heading"
        heading={<Trans>Provider calls that need a person ({stepCount})</Trans>}
        intro={
          <Trans>
            Each was retried on its own with growing waits. A failed one stops the ones after it for the same
            payment until it is retried.
          </Trans>
        }
        allClear={t`Every charge, release and refund has gone through.`}
        items={steps}
        keyOf={(step) => step.id}
      >
        {(step) => <StepCard step={step} />}
      </MoneyList>
      <MoneyList
        id="mismatch-heading"
        heading={<Trans>Billing and provider disagree ({mismatchCount})</Trans>}
        intro={
          <Trans>
            Found by the regular comparison of students' billing history with what the card provider charged
            and refunded.
          </Trans>
        }
        allClear={t`Every payment's billing rows match the provider.`}
        items={mismatches}
        keyOf={(mismatch) => mismatch.id}
      >
        {(mismatch) => <MismatchCard mismatch={mismatch} />}
      </MoneyList>
    </div>
  );
}

function StepCard({ step }: { step: PaymentStepView }) {
  const { t, i18n } = useLingui();
  const retry = useRetryPaymentStep();
  const failed = step.status === 'failed';
  const amount = step.amount;
  const titles: Record<PaymentStepKind, string> = {
    authorise: t`Hold of $${amount} on a saved card`,
    capture: t`Charge of $${amount}`,
    release: t`Release of a hold of $${amount}`,
    refund: t`Refund of $${amount}`,
  };
  const borrowerName = step.borrowerName;
  const lenderName = step.lenderName;
  const people = borrowerName ? t`${borrowerName} borrowing from ${lenderName}` : null;
  return (
    <Card className="p-4 sm:p-5">
      <MoneyCaseHeader
        icon={CreditCard}
        title={titles[step.kind]}
        itemTitle={step.itemTitle}
        subtitle={
          <>
            {i18n._(PURPOSE_LABELS[step.purpose])}
            {people ? ` · ${people}` : ''}
          </>
        }
        badge={failed ? { text: t`Failed`, tone: 'red' } : { text: t`Retrying`, tone: 'amber' }}
      />
      {step.lastError && <ProviderError text={step.lastError} />}
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-stone-700 sm:grid-cols-2">
        <div className="flex gap-2">
          <dt className="text-muted">
            <Trans>Attempts</Trans>
          </dt>
          <dd>{step.attempts}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-muted">
            <Trans>Last tried</Trans>
          </dt>
          <dd>{when(step.updatedAt, i18n)}</dd>
        </div>
        <PaymentIdFact id={step.paymentIntentId} />
      </dl>
      {failed && (
        <div className="mt-4">
          <Button
            onClick={() =>
              retry.mutate(step.id, {
                onSuccess: () =>
                  toast({ title: t`Retrying`, description: t`The call was sent to the provider again.` }),
                onError: (failure) =>
                  toast({
                    variant: 'destructive',
                    title: t`Retry failed`,
                    description: errorMessage(failure, t`Please try again.`),
                  }),
              })
            }
            disabled={retry.isPending}
          >
            {retry.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
            <Trans>Retry</Trans>
          </Button>
        </div>
      )}
    </Card>
  );
}

function MismatchCard({ mismatch }: { mismatch: PaymentMismatchView }) {
  const { t, i18n } = useLingui();
  const resolve = useResolveMismatch();
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const detected = when(mismatch.detectedAt, i18n);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = resolveMismatchInput.safeParse({ note });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    resolve.mutate(
      { id: mismatch.id, note: parsed.data.note },
      {
        onSuccess: () => toast({ title: t`Finding closed`, description: t`Your note is kept with it.` }),
        onError: (failure) => setError(errorMessage(failure, t`Please try again.`)),
      },
    );
  };

  return (
    <Card className="p-4 sm:p-5">
      <MoneyCaseHeader
        icon={Scale}
        tone="amber"
        title={mismatch.itemTitle ?? t`A payment`}
        subtitle={<Trans>Found {detected}</Trans>}
      />
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
        <div className="rounded-lg bg-stone-50 p-3">
          <dt className="text-muted">
            <Trans>Billing history says (charged − refunded)</Trans>
          </dt>
          <dd className="text-lg font-semibold tabular-nums text-ink">${mismatch.billingNet}</dd>
        </div>
        <div className="rounded-lg bg-stone-50 p-3">
          <dt className="text-muted">
            <Trans>The provider says</Trans>
          </dt>
          <dd className="text-lg font-semibold tabular-nums text-ink">${mismatch.providerNet}</dd>
        </div>
        <PaymentIdFact id={mismatch.paymentIntentId} />
      </dl>
      <form onSubmit={submit} className="mt-4 space-y-3" noValidate>
        <Field id={`${id}-note`} label={t`What was done about it`} error={error}>
          <Textarea
            {...describedBy(`${id}-note`, error)}
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setError(undefined);
            }}
            maxLength={2000}
            className="min-h-20"
          />
        </Field>
        <Button type="submit" variant="outline" disabled={resolve.isPending}>
          {resolve.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          <Trans>Mark resolved</Trans>
        </Button>
      </form>
    </Card>
  );
}
