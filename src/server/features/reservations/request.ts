import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { rangeIssue } from '#shared/booking/availability.ts';
import {
  AUTHORISATION_ANSWER_DAYS,
  DEFAULT_AUTHORISE_AHEAD_DAYS,
  deferredAuthorisationFrom,
  requestAnswerBy,
} from '#shared/booking/booking-deadlines.ts';
import { bookingLimitIssue, centsToDecimal, quote, toCents } from '#shared/booking/pricing.ts';
import { lenderCommissionCents } from '#shared/booking/service-fee.ts';
import { campusToday } from '#shared/calendar.ts';
import type { Locale } from '#shared/i18n.ts';
import type { Availability, Reservation } from '#shared/schemas/reservations.ts';
import { dayWhenWritten } from '../../booking-words.ts';
import { sqlState, transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound, providerUnavailable } from '../../errors.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import { paymentStepService } from '../payment-steps/service.ts';
import { resumeIfHeld } from './deferred-card.ts';
import { nowOf, type ReservationDeps } from './deps.ts';
import { completeExtensionPayment } from './extensions/request.ts';
import { dollars, paymentAuthorisedWords, requestedText } from './notices.ts';
import * as queries from './queries.ts';
import { loadForViewer, loadRequested } from './views.ts';

// The request (spec §4): dates that make sense, the server's own price, and the borrower's card
// authorised for exactly this booking before the lender is asked.

const PAYMENT_ALREADY_USED: MessageDescriptor = msg`That payment is already used by another reservation.`;
const paymentReleased = () =>
  conflict(
    msg`That payment was released because no request followed it in time. Please pay again.`,
    'PAYMENT_RELEASED',
  );

/**
 * Decision 062: when a booking requested now has its card held: null, at the request; else from
 * AUTHORISE_AHEAD_DAYS before its start, off-session with a card saved at the request.
 */
function authoriseFromFor(deps: ReservationDeps, startDate: string): Date | null {
  return deferredAuthorisationFrom(
    startDate,
    deps.authoriseAheadDays ?? DEFAULT_AUTHORISE_AHEAD_DAYS,
    deps.timeZone,
    nowOf(deps),
  );
}

/** Deleted, hidden by a moderator, or of a suspended owner: gone for borrowers. */
function offered(item: queries.BookableItem | undefined): item is queries.BookableItem {
  return Boolean(item && !item.deletedAt && !item.hiddenAt && !item.ownerSuspendedAt);
}

/**
 * The item, checked bookable by this borrower for these days; answers the server's own quote. Its
 * three reads (an overdue borrowing, the item, an overlapping booking) are one statement.
 */
async function checkBooking(
  deps: ReservationDeps,
  borrowerId: string,
  input: { itemId: string; startDate: string; endDate: string },
) {
  const { startDate, endDate } = input;
  const checks = await queries.findBookingChecks(deps.db, {
    borrowerId,
    itemId: input.itemId,
    today: campusToday(deps.timeZone, nowOf(deps)).date,
    startDate,
    endDate,
  });
  // Nothing new while something borrowed is overdue.
  const overdue = checks?.overdue;
  if (overdue) {
    const item = overdue.title;
    const due = dayWhenWritten(overdue.endDate);
    throw new AppError(
      403,
      'OVERDUE_RETURN',
      msg`Please return ${item} first: it was due back on ${due}. You can request new items once it is returned.`,
    );
  }
  const item = checks?.item;
  if (!offered(item)) throw notFound(msg`Item not found.`);
  if (item.userId === borrowerId) throw forbidden(msg`You cannot reserve your own item.`);
  if (!item.isAvailable) throw conflict(msg`This item is not available right now.`, 'ITEM_UNAVAILABLE');

  // The item's window: the shared rule the Reserve dialog's calendar greys days out by.
  const problem = rangeIssue({ startDate, endDate }, item, campusToday(deps.timeZone).date);
  if (problem) throw badRequest(problem.message, [problem]);
  const price = quote(
    {
      rentalPriceCents: item.rentalPriceCents,
      rentalPeriod: item.rentalPeriod as 'day' | 'week' | 'month' | null,
      depositCents: item.depositCents,
    },
    startDate,
    endDate,
    deps.fees,
  );
  const tooMuch = bookingLimitIssue(price);
  if (tooMuch) throw badRequest(tooMuch, [{ path: 'endDate', message: tooMuch }]);
  if (checks?.overlaps) throw conflict(msg`Those dates overlap an existing reservation.`, 'DATES_TAKEN');
  return { item, price };
}

/** A reservation insert that met the one-payment-one-booking index: the payment was used meanwhile. */
function paymentUsedRace(error: unknown): boolean {
  return (
    sqlState(error) === '23505' &&
    String((error as { cause?: unknown }).cause ?? error).includes('reservations_payment_intent_unique')
  );
}

/** What a payment is recorded for, and what a request must be to use it: this booking at this price. */
function paymentFor(
  borrowerId: string,
  itemId: string,
  dates: { startDate: string; endDate: string },
  price: { rentalCents: number; depositCents: number; serviceFeeCents: number },
): queries.PaymentFor {
  return {
    borrowerId,
    itemId,
    startDate: dates.startDate,
    endDate: dates.endDate,
    rentalCents: price.rentalCents,
    depositCents: price.depositCents,
    serviceFeeCents: price.serviceFeeCents,
  };
}

/**
 * Why a payment could not be taken for a booking (the statement that takes it checks the same): not
 * this borrower's, already used, released by the sweeper, or made for other dates or amounts.
 */
function refuse(
  recorded: Awaited<ReturnType<typeof paymentStepService.findIntent>>,
  paymentFor: queries.PaymentFor,
): never {
  if (!recorded || recorded.borrowerId !== paymentFor.borrowerId) {
    throw badRequest(msg`That payment does not belong to this reservation.`);
  }
  if (recorded.status === 'abandoned') throw paymentReleased();
  if (
    recorded.status === 'open' &&
    queries.paymentForFields(paymentFor).some(([field, value]) => recorded[field] !== value)
  ) {
    throw conflict(
      msg`That payment was made for other dates or another amount. Please go back and pay for these dates.`,
      'PAYMENT_MISMATCH',
    );
  }
  // Used by another booking, here or by a request that took it while this one waited for its row.
  throw conflict(PAYMENT_ALREADY_USED, 'PAYMENT_ALREADY_USED');
}

export async function availability(deps: ReservationDeps, itemId: string): Promise<Availability> {
  const item = await queries.findBookableItem(deps.db, itemId);
  if (!offered(item)) throw notFound(msg`Item not found.`);
  const today = campusToday(deps.timeZone).date;
  const [booked, requested] = await Promise.all([
    queries.bookedRanges(deps.db, itemId, today),
    queries.requestedRanges(deps.db, itemId, today),
  ]);
  return {
    today,
    availableFrom: item.availableFrom,
    availableUntil: item.availableUntil,
    availableDays: item.availableDays,
    booked,
    requested,
  };
}

/** Step 2 of the Reserve dialog: an authorisation for the server's own total (409 when the dialog's differs). */
export async function createPaymentIntent(
  deps: ReservationDeps,
  borrower: { id: string; email: string; fullName: string; isVerified: boolean },
  input: {
    itemId: string;
    startDate: string;
    endDate: string;
    depositAmount: string;
    rentalAmount: string;
  },
) {
  // Before any money is authorised: the request itself would be refused.
  emailVerificationService.requireVerified(borrower);
  const { item, price } = await checkBooking(deps, borrower.id, input);
  if (
    toCents(input.depositAmount) !== price.depositCents ||
    toCents(input.rentalAmount) !== price.rentalCents
  ) {
    const rental = dollars(price.rentalCents);
    const deposit = dollars(price.depositCents);
    throw conflict(
      msg`The price has changed: the rental is ${rental} and the deposit ${deposit}. Please review and try again.`,
      'AMOUNT_MISMATCH',
    );
  }
  if (price.totalCents === 0) throw badRequest(msg`This item is free: reserve it without a payment.`);
  const intent = await deps.payments.createPaymentIntent({
    amountCents: price.totalCents,
    currency: 'usd',
    customerId: null,
    metadata: {
      itemId: item.id,
      borrowerId: borrower.id,
      startDate: input.startDate,
      endDate: input.endDate,
    },
    idempotencyKey: `pi-${borrower.id}-${item.id}-${input.startDate}-${input.endDate}-${price.totalCents}-${Date.now()}`,
  });
  // What this authorisation is for: the request must match it, and if no request ever comes (the
  // tab closed after paying) the sweeper releases it.
  await paymentStepService.recordIntent(deps.db, {
    id: intent.id,
    ...paymentFor(borrower.id, item.id, input, price),
    amountCents: price.totalCents,
  });
  // The Reserve dialog says by when the lender answers (or the hold goes): a request made now. A booking
  // far ahead holds nothing at the request, so only its expiry hours and start day bound the answer.
  const now = nowOf(deps);
  const authoriseFrom = authoriseFromFor(deps, input.startDate);
  const answerBy = requestAnswerBy(
    { createdAt: now, startDate: input.startDate, authorisedAt: authoriseFrom ? null : now },
    deps.expiryHours ?? AUTHORISATION_ANSWER_DAYS * 24,
    deps.timeZone,
  );
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    amount: centsToDecimal(price.totalCents)!,
    answerBy: answerBy.toISOString(),
    serviceFeeAmount: centsToDecimal(price.serviceFeeCents)!,
    authoriseFrom: authoriseFrom?.toISOString() ?? null,
  };
}

export async function create(
  deps: ReservationDeps,
  borrower: { id: string; fullName: string; email: string; isVerified: boolean; locale?: Locale },
  input: {
    itemId: string;
    startDate: string;
    endDate: string;
    stripePaymentIntentId?: string | null;
    paymentMethodId?: string | null;
  },
): Promise<Reservation> {
  emailVerificationService.requireVerified(borrower);
  // The provider's word on the payment is asked while the booking is checked: one wait, not two.
  // Its refusal (no such payment) is a payment that is not this booking's; no answer is an outage,
  // said as such once the check has passed.
  const asked = input.stripePaymentIntentId
    ? deps.payments
        .retrievePaymentIntent(input.stripePaymentIntentId)
        .catch((error: unknown) => (error instanceof AppError ? null : providerUnavailable()))
    : null;
  const { item, price } = await checkBooking(deps, borrower.id, input);
  const intentId = price.totalCents > 0 ? (input.stripePaymentIntentId ?? null) : null;
  let card: { type: string; last4: string | null } | null = null;
  // Decision 062: far ahead, a saved card held off-session later; the intent stays unconfirmed till then.
  const authoriseFrom = price.totalCents > 0 ? authoriseFromFor(deps, input.startDate) : null;
  let offSessionCard: string | null = null;
  if (price.totalCents > 0) {
    // The money must already be authorised, for exactly this booking, and not used before.
    if (!intentId) throw new AppError(402, 'PAYMENT_REQUIRED', msg`Please pay to send this request.`);
    const intent = await asked;
    if (intent instanceof AppError) throw intent;
    if (!intent || intent.metadata.borrowerId !== borrower.id || intent.metadata.itemId !== item.id) {
      throw badRequest(msg`That payment does not belong to this reservation.`);
    }
    if (intent.status === 'canceled') throw paymentReleased();
    if (intent.status === 'requires_payment_method' && authoriseFrom && input.paymentMethodId) {
      const saved = await queries.savedCardOf(deps.db, borrower.id, input.paymentMethodId);
      if (!saved) throw notFound(msg`Payment method not found.`);
      offSessionCard = saved.stripePaymentMethodId;
      card = { type: saved.type, last4: saved.last4 };
    } else if (intent.status !== 'requires_capture')
      throw new AppError(402, 'PAYMENT_NOT_AUTHORISED', msg`The card payment has not been completed.`);
    if (intent.amountCents !== price.totalCents)
      throw conflict(msg`The payment does not match the price. Please start again.`, 'AMOUNT_MISMATCH');
    if (!offSessionCard) card = intent.card ? { type: intent.card.type, last4: intent.card.last4 } : null;
  }
  try {
    return await transaction(deps.db, async (tx) => {
      const booking = {
        itemId: item.id,
        borrowerId: borrower.id,
        providerId: item.userId,
        startDate: input.startDate,
        endDate: input.endDate,
        depositCents: price.depositCents,
        rentalCents: price.rentalCents,
        // The platform's share at the rates of this request (decision 055): later changes do not apply.
        serviceFeeCents: price.serviceFeeCents,
        serviceFeePercent: deps.fees.serviceFeePercent,
        lenderCommissionCents: lenderCommissionCents(price.rentalCents, deps.fees),
        lenderCommissionPercent: deps.fees.lenderCommissionPercent,
        stripePaymentIntentId: intentId,
        authoriseFrom: offSessionCard ? authoriseFrom : null,
        offSessionPaymentMethod: offSessionCard,
        cancellationPolicy: item.cancellationPolicy,
        rentalPeriod: item.rentalPeriod,
      };
      // A paid request takes its payment in the same statement, checked made for exactly this booking
      // and locked: ten requests with one payment make one booking. When the card was authorised, at
      // the latest, is when its payment was recorded (the request ends before that authorisation
      // lapses); a card held off-session later has no authorisation yet.
      const madeFor = paymentFor(borrower.id, item.id, input, price);
      const reservationId = intentId
        ? ((await queries.insertPaidReservation(
            tx,
            { ...booking, stripePaymentIntentId: intentId },
            madeFor,
            !offSessionCard,
          )) ?? refuse(await paymentStepService.findIntent(tx, intentId), madeFor))
        : await queries.insertReservation(tx, { ...booking, authorisedAt: null });
      const who = borrower.fullName;
      const title = item.title;
      await notificationService.notify(tx, {
        userId: item.userId,
        type: 'reservation_request',
        text: () => requestedText(who, title, input),
        relatedReservationId: reservationId,
        relatedItemId: item.id,
      });
      await ledgerService.hold(tx, {
        reservationId,
        borrowerId: borrower.id,
        paymentIntentId: intentId,
        amountCents: price.totalCents,
        description: () => paymentAuthorisedWords(title, input),
        card,
        borrowerLocale: borrower.locale,
      });
      if (offSessionCard && intentId && authoriseFrom) {
        await ledgerService.authoriseLater(tx, deps.jobs, {
          reservationId,
          paymentIntentId: intentId,
          amountCents: price.totalCents,
          notBefore: authoriseFrom,
        });
      }
      // Read on the same connection as it was written: the answer costs no further checkouts.
      return loadRequested({ ...deps, db: tx }, reservationId, borrower.id);
    });
  } catch (error) {
    if (paymentUsedRace(error)) throw conflict(PAYMENT_ALREADY_USED, 'PAYMENT_ALREADY_USED');
    throw error;
  }
}

/**
 * The 3-D Secure return (spec §4: the return address is /reservations): the bank sent the borrower
 * back after authorising, and the Reserve dialog that would have sent the request is gone. The
 * request is made from what the payment was recorded for; a second return finds it made.
 */
export async function completePayment(
  deps: ReservationDeps,
  borrower: { id: string; fullName: string; email: string; isVerified: boolean; locale?: Locale },
  paymentIntentId: string,
): Promise<{ reservation: Reservation; created: boolean }> {
  const existing = await queries.findByPaymentIntent(deps.db, paymentIntentId);
  if (existing) {
    if (existing.borrowerId !== borrower.id) throw notFound(msg`Payment not found.`);
    // Back from confirming the card of a booking whose off-session hold failed (decision 062).
    await resumeIfHeld(deps, existing.id);
    return { reservation: await loadForViewer(deps, existing.id, borrower.id), created: false };
  }
  const recorded = await paymentStepService.findIntent(deps.db, paymentIntentId);
  if (recorded?.extensionOf && recorded.borrowerId === borrower.id) {
    // Back from the bank for a request for more days; the booking itself is unchanged.
    const created = await completeExtensionPayment(deps, borrower, recorded);
    return { reservation: await loadForViewer(deps, recorded.extensionOf, borrower.id), created };
  }
  if (!recorded || recorded.borrowerId !== borrower.id || !recorded.itemId) {
    throw notFound(msg`Payment not found.`);
  }
  try {
    const reservation = await create(deps, borrower, {
      itemId: recorded.itemId,
      startDate: recorded.startDate,
      endDate: recorded.endDate,
      stripePaymentIntentId: paymentIntentId,
    });
    return { reservation, created: true };
  } catch (error) {
    // Two returns at once (a reload): the other one made it.
    if (error instanceof AppError && error.code === 'PAYMENT_ALREADY_USED') {
      const made = await queries.findByPaymentIntent(deps.db, paymentIntentId);
      if (made?.borrowerId === borrower.id) {
        return { reservation: await loadForViewer(deps, made.id, borrower.id), created: false };
      }
    }
    throw error;
  }
}
