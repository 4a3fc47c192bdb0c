import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarPlus } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type FormEvent, useId, useState } from 'react';
import { addDays } from '#shared/booking/availability.ts';
import { EXTENDABLE_STATUSES, extensionProblem, extensionRentalCents } from '#shared/booking/extensions.ts';
import { centsToDecimal, toCents } from '#shared/booking/pricing.ts';
import { serviceFeeCents } from '#shared/booking/service-fee.ts';
import { formatMoney } from '#shared/format.ts';
import type { Extension } from '#shared/schemas/extensions.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useServiceFeeRates } from '../../../lib/client-config.ts';
import { toast } from '../../../lib/toast.ts';
import { useItem } from '../../items/api.ts';
import { SavedCardCheckout } from '../../payments/api.ts';
import { dayLabel as formatDay } from '../dates.ts';
import { useAnswerExtension, useExtensionPaymentIntent, useRequestExtension } from '../extension-api.ts';
import type { PaymentIntent } from '../queries.ts';

// Decision 031, on a My Reservations card: the request for more days waiting for the
// lender ("Extension requested to Dec 3 · $8.00 · waiting for Maya", with Approve and Decline for the
// lender, Take back for the borrower), or, on an approved or picked-up booking, the borrower's
// 'Ask for more days'. The server decides; this only shows and asks.

const dayLabel = (day: string) => formatDay(day, 'short');

/** "$8.00", or "No extra charge" for a free item or days inside a period already paid for. */
function extraLabel(rentalAmount: string): string {
  const cents = toCents(rentalAmount) ?? 0;
  return cents > 0 ? formatMoney(cents) : t`No extra charge`;
}

export function ExtensionPanel({ reservation: r, viewerId }: { reservation: Reservation; viewerId: string }) {
  const role = viewerId === r.providerId ? 'provider' : 'borrower';
  if (r.pendingExtension)
    return <PendingExtension reservation={r} extension={r.pendingExtension} role={role} />;
  if (role === 'borrower' && (EXTENDABLE_STATUSES as readonly string[]).includes(r.status)) {
    return (
      <div className="mt-4">
        <AskForMoreDays reservation={r} />
      </div>
    );
  }
  return null;
}

function PendingExtension({
  reservation: r,
  extension,
  role,
}: {
  reservation: Reservation;
  extension: Extension;
  role: 'borrower' | 'provider';
}) {
  const { t } = useLingui();
  const answer = useAnswerExtension();
  const title = r.item.title;
  const newEnd = dayLabel(extension.newEndDate);
  const previousEnd = dayLabel(extension.previousEndDate);
  const currentEnd = dayLabel(r.endDate);
  const extra = extraLabel(extension.rentalAmount);
  const lender = r.provider.fullName;
  const borrower = r.borrower.fullName;
  const act = (action: 'approve' | 'decline' | 'cancel') =>
    answer.mutate(
      { id: extension.id, action },
      {
        onSuccess: () =>
          toast({
            title:
              action === 'approve'
                ? t`More days approved`
                : action === 'decline'
                  ? t`More days declined`
                  : t`Request taken back`,
            description:
              action === 'approve'
                ? t`${title} is now due back on ${newEnd}.`
                : t`${title} is still due back on ${currentEnd}.`,
          }),
        onError: (failure) =>
          toast({
            variant: 'destructive',
            title: t`That did not work`,
            description: errorMessage(failure, t`Please try again.`),
          }),
      },
    );
  return (
    <div className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-3">
      <p className="flex items-start gap-2 text-sm text-amber-950">
        <CalendarPlus className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <span>
          {role === 'borrower' ? (
            <Trans>
              <span className="font-semibold">Extension requested to {newEnd}</span> · {extra} · waiting for{' '}
              {lender}
            </Trans>
          ) : (
            <Trans>
              <span className="font-semibold">Extension requested to {newEnd}</span> · {extra} · waiting for
              you
            </Trans>
          )}
        </span>
      </p>
      {role === 'provider' && (
        <p className="mt-1 text-sm text-amber-950">
          <Trans>
            {borrower} asks to return it on {newEnd} instead of {previousEnd}. Unanswered, the request lapses
            after {previousEnd}.
          </Trans>
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2 [&>*]:flex-1 sm:[&>*]:flex-none">
        {role === 'provider' ? (
          <>
            <Button onClick={() => act('approve')} disabled={answer.isPending}>
              <Trans>Approve extension</Trans>
            </Button>
            <Button variant="outline" onClick={() => act('decline')} disabled={answer.isPending}>
              <Trans>Decline extension</Trans>
            </Button>
          </>
        ) : (
          <Button variant="outline" onClick={() => act('cancel')} disabled={answer.isPending}>
            <Trans>Take back request</Trans>
          </Button>
        )}
      </div>
    </div>
  );
}

/** The borrower's dialog: a new return day, what it costs, the card for a paid one, then the request. */
function AskForMoreDays({ reservation: r }: { reservation: Reservation }) {
  const [open, setOpen] = useState(false);
  const title = r.item.title;
  const dueBack = dayLabel(r.endDate);
  const lender = r.provider.fullName;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="outline">
          <CalendarPlus className="h-4 w-4" aria-hidden="true" />
          <Trans>Ask for more days</Trans>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-bold text-ink">
            <Trans>Ask for more days</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">
            <Trans>
              {title} is due back on {dueBack}. {lender} approves or declines; nothing changes until then.
            </Trans>
          </Dialog.Description>
          {open && <AskForm reservation={r} onDone={() => setOpen(false)} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function AskForm({ reservation: r, onDone }: { reservation: Reservation; onDone: () => void }) {
  const { t } = useLingui();
  const inputId = useId();
  const item = useItem(r.itemId);
  const [endDate, setEndDate] = useState(addDays(r.endDate, 1));
  const [error, setError] = useState<string>();
  const [intent, setIntent] = useState<PaymentIntent>();
  const createIntent = useExtensionPaymentIntent();
  const request = useRequestExtension();
  const busy = createIntent.isPending || request.isPending;

  const priced = item.data?.item;
  const pricing = priced
    ? {
        rentalPriceCents: toCents(priced.rentalPrice),
        rentalPeriod: priced.rentalPeriod ?? null,
        depositCents: toCents(priced.depositAmount),
        availableFrom: priced.availableFrom,
        availableUntil: priced.availableUntil,
        availableDays: priced.availableDays,
      }
    : null;
  // The booking's own end is 'today' here: whether it has passed is the server's to say.
  const problem = pricing ? extensionProblem(r, endDate, pricing, r.endDate) : null;
  const cents = pricing && !problem ? extensionRentalCents(pricing, r, endDate) : 0;
  // The service fee on the extra rental (decision 055), at the server's rates; its answer decides.
  const rates = useServiceFeeRates();
  const fee = rates ? serviceFeeCents(cents, rates) : 0;
  const lender = r.provider.fullName;
  const title = r.item.title;
  const until = dayLabel(endDate);
  const more = formatMoney((intent && toCents(intent.amount)) ?? cents + fee);
  const extra = extraLabel(centsToDecimal(cents)!);
  const feeLabel = formatMoney(fee);

  const sendRequest = (paymentIntentId: string | null) =>
    request.mutate(
      { reservationId: r.id, endDate, paymentIntentId },
      {
        onSuccess: () => {
          toast({
            title: t`Request sent`,
            description: t`${lender} will approve or decline keeping ${title} until ${until}.`,
          });
          onDone();
        },
        onError: (failure) => {
          setIntent(undefined);
          setError(errorMessage(failure, t`The request was not sent. Please try again.`));
        },
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) {
      setError(problem);
      return;
    }
    setError(undefined);
    if (cents === 0) {
      sendRequest(null);
      return;
    }
    createIntent.mutate(
      { reservationId: r.id, endDate, rentalAmount: centsToDecimal(cents)! },
      {
        onSuccess: setIntent,
        onError: (failure) => setError(errorMessage(failure, t`The payment could not be set up.`)),
      },
    );
  };

  if (intent) {
    return (
      <div className="mt-4 space-y-3">
        <p className="text-sm text-stone-700">
          <Trans>
            Until {until}: {more} more. It is held on your card and charged only if {lender} approves.
          </Trans>
        </p>
        <SavedCardCheckout
          clientSecret={intent.clientSecret}
          paymentIntentId={intent.paymentIntentId}
          submitLabel={t`Hold ${more}`}
          onConfirmed={() => sendRequest(intent.paymentIntentId)}
          onError={(message) => {
            setIntent(undefined);
            setError(message || t`The card was not accepted. Nothing was changed.`);
          }}
        />
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
      <Field id={inputId} label={t`New return date`} error={error ?? problem ?? undefined}>
        <Input
          {...describedBy(inputId, error ?? problem ?? undefined)}
          type="date"
          value={endDate}
          min={addDays(r.endDate, 1)}
          max={pricing?.availableUntil ?? undefined}
          onChange={(event) => {
            setEndDate(event.target.value);
            setError(undefined);
          }}
        />
      </Field>
      <p className="text-sm text-stone-700" aria-live="polite">
        {!pricing || !rates
          ? t`Working out the price...`
          : problem
            ? ''
            : fee > 0
              ? t`Extra rental: ${extra} + ${feeLabel} service fee`
              : t`Extra rental: ${extra}`}
      </p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Dialog.Close className={buttonClasses('outline')} disabled={busy}>
          <Trans>Cancel</Trans>
        </Dialog.Close>
        <Button type="submit" disabled={busy || !pricing || !rates || Boolean(problem)}>
          {busy ? t`Sending...` : cents > 0 ? t`Continue to payment` : t`Send request`}
        </Button>
      </div>
    </form>
  );
}
