import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CalendarRange, CalendarX, Loader2, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { bookingLimitError, centsToDecimal, type Quote, quote, toCents } from '#shared/booking/pricing.ts';
import type { RentalPeriod } from '#shared/constants.ts';
import { formatMoney, formatPrice } from '#shared/format.ts';
import type { Item } from '#shared/schemas/items.ts';
import { type Reservation, reservationDates } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useSession } from '../../auth/api.ts';
import { VerificationRequired } from '../../email-verification/components/verification-required.tsx';
import { itemKeys } from '../../items/api.ts';
import { SavedCardCheckout } from '../../payments/components/saved-card-checkout.tsx';
import { useWaitlistParam } from '../../waitlist/use-waitlist-param.ts';
import {
  type PaymentIntent,
  reservationKeys,
  useAvailability,
  useCreatePaymentIntent,
  useCreateReservation,
} from '../api.ts';
import { dayLabel } from '../dates.ts';
import { holdNotice } from '../money-wording.ts';
import { CancellationPolicyNote } from './cancellation-policy-note.tsx';
import {
  type DateRange,
  DateRangePicker,
  defaultRange,
  isSelectableDay,
  isValidEnd,
} from './date-range-picker.tsx';
import { OtherCampusConfirm } from './other-campus-confirm.tsx';
import { RequestSent } from './request-sent.tsx';
import { useReserveDates, useReserveParam } from './use-reserve-param.ts';

// Spec §2 Item detail / §4 Reserve dialog: step 'details' (dates and the cost) and, when there is
// something to pay, step 'payment' (the summary and the card form). The card is authorised first;
// the request then goes to the lender with the payment's id. A free item is requested directly.

type ReservableItem = Pick<
  Item,
  | 'id'
  | 'title'
  | 'rentalPrice'
  | 'rentalPeriod'
  | 'depositAmount'
  | 'isAvailable'
  | 'campus'
  | 'user'
  | 'cancellationPolicy'
>;

/** The signed-in non-owner's 'Reserve Item' button and its dialog. */
export function ReserveDialog({
  item,
  label,
  variant = 'primary',
  suggested = null,
}: {
  item: ReservableItem;
  /** Dates to start on when the address names none: the ones a waitlist said are free (issue 18). */
  suggested?: DateRange | null;
  /** The button's words ('Reserve other dates' beside a request already made, issue 16). */
  label?: string;
  variant?: 'primary' | 'outline';
}) {
  const { t } = useLingui();
  // Open while the address says ?reserve=1 (issue 16: back from signing in with it open).
  const [open, setOpen] = useReserveParam();
  const [busy, setBusy] = useState(false);

  if (!item.isAvailable) {
    return (
      <div>
        <Button size="lg" className="w-full" disabled aria-describedby="reserve-unavailable">
          <CalendarRange className="h-5 w-5" aria-hidden="true" />
          <Trans>Reserve Item</Trans>
        </Button>
        <p id="reserve-unavailable" className="mt-1.5 text-center text-sm text-muted">
          <Trans>Not available right now</Trans>
        </p>
      </div>
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || !busy) && setOpen(next)}>
      <Dialog.Trigger asChild>
        <Button size="lg" variant={variant} className="w-full">
          <CalendarRange className="h-5 w-5" aria-hidden="true" />
          {label ?? t`Reserve Item`}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-lg -translate-x-1/2 md:max-w-3xl -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:p-6">
          <ReserveDialogBody
            item={item}
            suggested={suggested}
            onBusyChange={setBusy}
            onDone={() => setOpen(false)}
          />
          <Dialog.Close
            aria-label={t`Close`}
            disabled={busy}
            className="absolute end-2 top-2 flex h-11 w-11 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100 disabled:opacity-40"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Mounted while the dialog is open, so every opening starts afresh on 'details'. */
function ReserveDialogBody({
  item,
  suggested,
  onBusyChange,
  onDone,
}: {
  item: ReservableItem;
  suggested: DateRange | null;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const availability = useAvailability(item.id);
  const createIntent = useCreatePaymentIntent();
  const createReservation = useCreateReservation();
  // Issue 16: reserving on another campus asks first (the handover is in person, on the lender's campus).
  const otherCampus = Boolean(user && item.campus && user.campus !== item.campus);
  // Issue 18: students of the item's campus may wait for booked days (the waitlist's own rule).
  const mayWait = Boolean(user && item.campus && user.campus === item.campus);
  const [step, setStep] = useState<'campus' | 'details' | 'payment'>(otherCampus ? 'campus' : 'details');
  /** The request went: the dialog says what happens next (issue 16). */
  const [sent, setSent] = useState<Reservation | null>(null);
  const [chosen, setChosen] = useState<DateRange | null>(null);
  const [intent, setIntent] = useState<PaymentIntent | null>(null);
  /** The card was authorised but the request did not go through: it can be sent again. */
  const [paidIntentId, setPaidIntentId] = useState<string | null>(null);

  const a = availability.data;
  const fromAddress = useReserveDates();
  // The chosen dates while they can still be booked (a refetch may show them taken), else the dates
  // the address or the waitlist suggest, else the defaults.
  const bookable = (r: DateRange | null): r is DateRange =>
    Boolean(a && r && isSelectableDay(r.startDate, a) && isValidEnd(r.startDate, r.endDate, a));
  const range = !a ? null : ([chosen, fromAddress, suggested].find(bookable) ?? defaultRange(a));
  const price = range
    ? quote(
        {
          rentalPriceCents: toCents(item.rentalPrice),
          rentalPeriod: item.rentalPeriod,
          depositCents: toCents(item.depositAmount),
        },
        range.startDate,
        range.endDate,
      )
    : null;

  // Issue 12: a booking has a longest length and a largest total; the server says the same.
  const overLimit = price ? bookingLimitError(price) : null;

  const refreshDates = () => {
    void queryClient.invalidateQueries({ queryKey: reservationKeys.availability(item.id) });
    void queryClient.invalidateQueries({ queryKey: itemKeys.detail(item.id) });
  };

  const sendRequest = (stripePaymentIntentId?: string) => {
    if (!range) return;
    onBusyChange(true);
    createReservation.mutate(
      { itemId: item.id, ...range, ...(stripePaymentIntentId ? { stripePaymentIntentId } : {}) },
      {
        onSuccess: ({ reservation }) => {
          onBusyChange(false);
          toast({
            title: t`Reservation created!`,
            description: t`Your reservation request has been sent to the item owner.`,
            // No 'View' action here: the dialog stays open on 'Request sent' with its own link to My
            // Reservations, and a modal dialog hides the toast area from clicks and screen readers.
          });
          setSent(reservation);
        },
        onError: (error) => {
          onBusyChange(false);
          if (stripePaymentIntentId) setPaidIntentId(stripePaymentIntentId);
          toast({
            variant: 'destructive',
            title: t`Reservation failed`,
            description: errorMessage(error, t`Please try again.`),
          });
        },
      },
    );
  };

  const onContinue = () => {
    if (!range || !price || overLimit) return;
    if (!reservationDates.safeParse({ itemId: item.id, ...range }).success) return;
    if (price.totalCents === 0) {
      sendRequest();
      return;
    }
    setIntent(null);
    setPaidIntentId(null);
    setStep('payment');
    createIntent.mutate(
      {
        itemId: item.id,
        ...range,
        depositAmount: centsToDecimal(price.depositCents) ?? '0.00',
        rentalAmount: centsToDecimal(price.rentalCents) ?? '0.00',
      },
      {
        onSuccess: (data) => setIntent(data),
        onError: (error) => {
          setStep('details');
          refreshDates();
          toast({
            variant: 'destructive',
            title: t`Payment setup failed`,
            description: errorMessage(error, t`Please try again.`),
          });
        },
      },
    );
  };

  const backToDetails = () => {
    createIntent.reset();
    setIntent(null);
    setPaidIntentId(null);
    setStep('details');
  };

  const itemTitle = item.title;

  if (sent) return <RequestSent reservation={sent} onDone={onDone} />;

  if (step === 'campus' && user) {
    return (
      <OtherCampusConfirm
        itemCampusName={item.user.campusName}
        ownCampusName={user.campusName}
        lenderName={item.user.fullName}
        onContinue={() => setStep('details')}
        onCancel={onDone}
      />
    );
  }

  if (step === 'payment' && range && price) {
    const totalLabel = formatMoney(price.totalCents);
    return (
      <div className="space-y-5">
        <Header title={t`Payment`} description={holdNotice(price, item.user.fullName)} />
        <div className="grid gap-5 md:grid-cols-2 md:items-start">
          <OrderSummary title={item.title} range={range} price={price} />
          <div className="space-y-4">
            {paidIntentId ? (
              <div className="space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-4">
                <p className="text-sm text-stone-800">
                  <Trans>Your card was authorised, but the request did not reach the owner.</Trans>
                </p>
                <Button
                  className="w-full"
                  onClick={() => sendRequest(paidIntentId)}
                  disabled={createReservation.isPending}
                >
                  {createReservation.isPending ? t`Sending request...` : t`Send Request Again`}
                </Button>
              </div>
            ) : createReservation.isPending ? (
              <Status>{t`Sending your request...`}</Status>
            ) : intent ? (
              <SavedCardCheckout
                clientSecret={intent.clientSecret}
                paymentIntentId={intent.paymentIntentId}
                submitLabel={t`Pay ${totalLabel}`}
                onConfirmed={() => sendRequest(intent.paymentIntentId)}
                onError={(message) =>
                  toast({
                    variant: 'destructive',
                    title: t`Payment Failed`,
                    description: message || t`Please try again.`,
                  })
                }
              />
            ) : (
              <Status>{t`Setting up payment...`}</Status>
            )}
            <Button
              variant="outline"
              className="w-full"
              onClick={backToDetails}
              disabled={createReservation.isPending}
            >
              <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
              <Trans>Back to Details</Trans>
            </Button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <Header title={t`Reserve ${itemTitle}`} description={t`Choose when you'd like to borrow it.`} />
      {user && !user.isVerified && (
        // First thing in the dialog, before any card is asked for; chosen dates stay while they verify.
        <VerificationRequired email={user.email} action="reserve" />
      )}
      {availability.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <Status>{t`Loading available dates...`}</Status>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-72 w-full rounded-xl" />
        </div>
      ) : availability.isError ? (
        <div className="space-y-3 rounded-xl border border-line p-4 text-center">
          <p className="text-stone-700">
            {errorMessage(availability.error, t`The available dates could not be loaded.`)}
          </p>
          <Button variant="outline" onClick={() => void availability.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : !range || !price || !availability.data ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-line p-6 text-center">
          <CalendarX className="h-8 w-8 text-stone-500" aria-hidden="true" />
          <p className="font-semibold text-ink">
            <Trans>No dates available</Trans>
          </p>
          <p className="text-sm text-muted">
            <Trans>This item can't be reserved for any upcoming dates.</Trans>
          </p>
          {mayWait && <WaitlistHandover />}
        </div>
      ) : (
        <div className="grid gap-5 md:grid-cols-[minmax(0,1fr)_15rem] md:items-start">
          <div className="space-y-3">
            <DateRangePicker availability={availability.data} value={range} onChange={setChosen} />
            {mayWait && <WaitlistHandover />}
          </div>
          <div className="space-y-4 md:sticky md:top-0">
            <CostBreakdown item={item} price={price} startDate={range.startDate} />
            {overLimit && (
              <p id="reserve-limit" role="alert" className="text-sm font-medium text-danger">
                {overLimit}
              </p>
            )}
            {(!user || user.isVerified) && (
              <Button
                size="lg"
                className="w-full"
                onClick={onContinue}
                disabled={createReservation.isPending || createIntent.isPending || Boolean(overLimit)}
                aria-describedby={overLimit ? 'reserve-limit' : undefined}
              >
                {createReservation.isPending
                  ? t`Sending request...`
                  : price.totalCents > 0
                    ? t`Continue to Payment`
                    : t`Request to Borrow`}
              </Button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** Issue 18: the days wanted are booked: hand over to "Notify me when available" on the item page. */
function WaitlistHandover() {
  const [, openWaitlist] = useWaitlistParam();
  return (
    <p className="text-sm text-stone-700">
      <Trans>
        Days you need already booked?{' '}
        <button
          type="button"
          className="min-h-11 font-semibold text-brand-700 underline-offset-4 hover:underline"
          onClick={() => openWaitlist(true)}
        >
          Get notified when they free up
        </button>
      </Trans>
    </p>
  );
}

function Header({ title, description }: { title: string; description: string }) {
  return (
    <div className="pe-10">
      <Dialog.Title className="break-words text-xl font-bold text-ink">{title}</Dialog.Title>
      <Dialog.Description className="mt-1 text-sm text-stone-700">{description}</Dialog.Description>
    </div>
  );
}

function Status({ children }: { children: string }) {
  return (
    <p
      role="status"
      className="flex items-center justify-center gap-2 py-6 text-sm font-medium text-stone-700"
    >
      <Loader2 className="h-5 w-5 motion-safe:animate-spin" aria-hidden="true" />
      {children}
    </p>
  );
}

/** Spec §2: rental plus the refundable deposit, the total and the borrowing period. */
function CostBreakdown({
  item,
  price,
  startDate,
}: {
  item: ReservableItem;
  price: Quote;
  startDate: string;
}) {
  const { t } = useLingui();
  const days = price.days;
  /** '$5.00 / day': the item's price per rental period. */
  const ratePer = (price: string, period: RentalPeriod) =>
    period === 'day' ? t`${price} / day` : period === 'week' ? t`${price} / week` : t`${price} / month`;
  const rate =
    toCents(item.rentalPrice) && item.rentalPeriod
      ? ratePer(formatPrice(item.rentalPrice), item.rentalPeriod)
      : toCents(item.rentalPrice)
        ? t`flat fee`
        : t`free`;
  return (
    <section aria-labelledby="cost-heading" className="rounded-xl bg-stone-50 p-4">
      <h3 id="cost-heading" className="font-semibold text-ink">
        <Trans>Cost breakdown</Trans>
      </h3>
      <dl className="mt-3 space-y-2 text-sm">
        <Row label={t`Rental (${rate})`} value={formatMoney(price.rentalCents)} />
        <Row label={t`Deposit (refundable)`} value={formatMoney(price.depositCents)} />
        <Row label={t`Total`} value={formatMoney(price.totalCents)} strong />
      </dl>
      <p className="mt-3 text-sm text-stone-700">
        <Trans>
          Borrowing period: <Plural value={days} one="# day" other="# days" />
        </Trans>
      </p>
      {price.depositCents > 0 && (
        <p className="mt-1 text-xs text-muted">
          <Trans>The deposit is refunded when the item comes back in good condition.</Trans>
        </p>
      )}
      <div className="mt-3 border-t border-line pt-3">
        <CancellationPolicyNote
          policy={item.cancellationPolicy}
          booking={{ startDate, rentalCents: price.rentalCents, depositCents: price.depositCents }}
        />
      </div>
    </section>
  );
}

function OrderSummary({ title, range, price }: { title: string; range: DateRange; price: Quote }) {
  const { t } = useLingui();
  const from = dayLabel(range.startDate, 'medium');
  const to = dayLabel(range.endDate, 'medium');
  const days = price.days;
  return (
    <section aria-labelledby="summary-heading" className="rounded-xl bg-stone-50 p-4">
      <h3 id="summary-heading" className="font-semibold text-ink">
        <Trans>Order summary</Trans>
      </h3>
      <p className="mt-2 break-words font-medium text-ink">{title}</p>
      <p className="text-sm text-stone-700">
        <Trans>
          {from} – {to} (<Plural value={days} one="# day" other="# days" />)
        </Trans>
      </p>
      <dl className="mt-3 space-y-2 text-sm">
        <Row label={t`Rental`} value={formatMoney(price.rentalCents)} />
        <Row label={t`Deposit (refundable)`} value={formatMoney(price.depositCents)} />
        <Row label={t`Total`} value={formatMoney(price.totalCents)} strong />
      </dl>
    </section>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div
      className={
        strong
          ? 'flex justify-between gap-3 border-t border-line pt-2 text-base font-bold text-ink'
          : 'flex justify-between gap-3'
      }
    >
      <dt className={strong ? '' : 'text-stone-700'}>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
