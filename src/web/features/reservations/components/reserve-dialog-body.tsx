import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CalendarX } from 'lucide-react';
import { useState } from 'react';
import { bookingLimitError, centsToDecimal, quote, toCents } from '#shared/booking/pricing.ts';
import { formatMoney } from '#shared/format.ts';
import { type Reservation, reservationDates } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { ratesOf, useClientConfigPart } from '../../../lib/client-config.ts';
import { toast } from '../../../lib/toast.ts';
import { useReserveDates } from '../../../lib/use-reserve-param.ts';
import { useSession } from '../../auth/api.ts';
import { VerificationRequired } from '../../email-verification/api.ts';
import { itemKeys } from '../../items/api.ts';
import { CardSetupForm, SavedCardCheckout } from '../../payments/api.ts';
import { answerWindowNote, savedCardAnswerNote } from '../answer-window.ts';
import { holdNotice, savedCardNotice } from '../money-wording.ts';
import {
  type PaymentIntent,
  reservationKeys,
  useAvailability,
  useCreatePaymentIntent,
  useCreateReservation,
} from '../queries.ts';
import {
  type DateRange,
  DateRangePicker,
  defaultRange,
  includesRequestedDays,
  isSelectableDay,
  isValidEnd,
} from './date-range-picker.tsx';
import { OtherCampusConfirm } from './other-campus-confirm.tsx';
import { RequestSent } from './request-sent.tsx';
import { CostBreakdown, OrderSummary, type ReservableItem } from './reserve-cost.tsx';
import { Header, RequestedDaysNote, Status, WaitlistHandover } from './reserve-dialog-parts.tsx';

// The reserve dialog's steps (spec §4 Reserve dialog): on another campus a question first, then the
// dates and the cost, then the payment when there is something to pay, and what happens next once sent.

/** Mounted while the dialog is open, so every opening starts afresh on 'details'. */
export function ReserveDialogBody({
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
  // The service fee's rates as the server charges them (decision 055): the cost waits for them, and
  // so do the dates; without them the calendar would read "No dates available" until they came.
  const ratesQuery = useClientConfigPart(ratesOf);
  const rates = ratesQuery.data;
  const createIntent = useCreatePaymentIntent();
  const createReservation = useCreateReservation();
  // Reserving on another campus asks first (the handover is in person, on the lender's campus).
  const otherCampus = Boolean(user && item.campus && user.campus !== item.campus);
  // Students of the item's campus may wait for booked days (the waitlist's own rule).
  const mayWait = Boolean(user && item.campus && user.campus === item.campus);
  const [step, setStep] = useState<'campus' | 'details' | 'payment'>(otherCampus ? 'campus' : 'details');
  /** The request went: the dialog says what happens next. */
  const [sent, setSent] = useState<Reservation | null>(null);
  const [chosen, setChosen] = useState<DateRange | null>(null);
  const [intent, setIntent] = useState<PaymentIntent | null>(null);
  /** The card was authorised but the request did not go through: it can be sent again. */
  const [paidIntentId, setPaidIntentId] = useState<string | null>(null);
  /** Far ahead: the card was saved but the request did not go through: it can be sent again. */
  const [savedCardId, setSavedCardId] = useState<string | null>(null);

  const a = availability.data;
  const fromAddress = useReserveDates();
  // The chosen dates while they can still be booked (a refetch may show them taken), else the dates
  // the address or the waitlist suggest, else the defaults.
  const bookable = (r: DateRange | null): r is DateRange =>
    Boolean(a && r && isSelectableDay(r.startDate, a) && isValidEnd(r.startDate, r.endDate, a));
  const range = !a ? null : ([chosen, fromAddress, suggested].find(bookable) ?? defaultRange(a));
  const quoted =
    range && rates
      ? quote(
          {
            rentalPriceCents: toCents(item.rentalPrice),
            rentalPeriod: item.rentalPeriod,
            depositCents: toCents(item.depositAmount),
          },
          range.startDate,
          range.endDate,
          rates,
        )
      : null;
  // Once the server has answered the payment intent, its figures are what the card is authorised for.
  const price =
    quoted && intent
      ? {
          ...quoted,
          serviceFeeCents: toCents(intent.serviceFeeAmount) ?? quoted.serviceFeeCents,
          totalCents: toCents(intent.amount) ?? quoted.totalCents,
        }
      : quoted;

  // The chosen days include days someone else asked for (the lender may approve that request first).
  const overRequested = Boolean(range && a && includesRequestedDays(range, a));

  // A booking has a longest length and a largest total; the server says the same.
  const overLimit = price ? bookingLimitError(price) : null;

  const refreshDates = () => {
    void queryClient.invalidateQueries({ queryKey: reservationKeys.availability(item.id) });
    void queryClient.invalidateQueries({ queryKey: itemKeys.detail(item.id) });
  };

  const sendRequest = (stripePaymentIntentId?: string, paymentMethodId?: string) => {
    if (!range) return;
    onBusyChange(true);
    createReservation.mutate(
      {
        itemId: item.id,
        ...range,
        ...(stripePaymentIntentId ? { stripePaymentIntentId } : {}),
        // A booking far ahead (decision 062): the saved card it is held with close to the start.
        ...(paymentMethodId ? { paymentMethodId } : {}),
      },
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
          if (stripePaymentIntentId && !paymentMethodId) setPaidIntentId(stripePaymentIntentId);
          if (paymentMethodId) setSavedCardId(paymentMethodId);
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
    setSavedCardId(null);
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
    setSavedCardId(null);
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
    // Decision 062: a booking far ahead saves the card now and holds it a few days before the start.
    const holdFrom = intent?.authoriseFrom ?? null;
    return (
      <div className="space-y-5">
        <Header
          title={t`Payment`}
          description={
            holdFrom
              ? savedCardNotice(price, item.user.fullName, holdFrom)
              : holdNotice(price, item.user.fullName)
          }
        />
        {intent ? (
          <p className="text-sm text-stone-700">
            {holdFrom
              ? savedCardAnswerNote(item.user.fullName, intent.answerBy)
              : answerWindowNote(item.user.fullName, intent.answerBy)}
          </p>
        ) : null}
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
            ) : savedCardId && intent ? (
              <div className="space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-4">
                <p className="text-sm text-stone-800">
                  <Trans>Your card was saved, but the request did not reach the owner.</Trans>
                </p>
                <Button
                  className="w-full"
                  onClick={() => sendRequest(intent.paymentIntentId, savedCardId)}
                  disabled={createReservation.isPending}
                >
                  {createReservation.isPending ? t`Sending request...` : t`Send Request Again`}
                </Button>
              </div>
            ) : createReservation.isPending ? (
              <Status>{t`Sending your request...`}</Status>
            ) : intent && holdFrom ? (
              <CardSetupForm
                submitLabel={t`Save Card and Send Request`}
                onSaved={(method) => {
                  if (method) sendRequest(intent.paymentIntentId, method.id);
                  else
                    toast({
                      variant: 'destructive',
                      title: t`Reservation failed`,
                      description: t`Your card was saved; choose it again to send the request.`,
                    });
                }}
                onError={(message, shownInForm) => {
                  if (shownInForm) return;
                  toast({
                    variant: 'destructive',
                    title: t`Payment Failed`,
                    description: message || t`Please try again.`,
                  });
                }}
              />
            ) : intent ? (
              <SavedCardCheckout
                clientSecret={intent.clientSecret}
                paymentIntentId={intent.paymentIntentId}
                submitLabel={t`Pay ${totalLabel}`}
                onConfirmed={() => sendRequest(intent.paymentIntentId)}
                // A refused card is said under the card field; a toast would repeat it over the form.
                onError={(message, shownInForm) => {
                  if (shownInForm) return;
                  toast({
                    variant: 'destructive',
                    title: t`Payment Failed`,
                    description: message || t`Please try again.`,
                  });
                }}
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
      {availability.isPending || ratesQuery.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <Status>{t`Loading available dates...`}</Status>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-72 w-full rounded-xl" />
        </div>
      ) : availability.isError || ratesQuery.isError ? (
        <div className="space-y-3 rounded-xl border border-line p-4 text-center">
          <p className="text-stone-700">
            {errorMessage(
              availability.error ?? ratesQuery.error,
              t`The available dates could not be loaded.`,
            )}
          </p>
          <Button
            variant="outline"
            onClick={() => {
              if (availability.isError) void availability.refetch();
              if (ratesQuery.isError) void ratesQuery.refetch();
            }}
          >
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
            <RequestedDaysNote show={overRequested} mayWait={mayWait} />
            {/* The note offers the waitlist for those days itself: one offer at a time. */}
            {mayWait && !overRequested && <WaitlistHandover />}
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
