import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { BOOKED_STATUSES } from '#shared/booking/availability.ts';
import { extensionLapsesAt } from '#shared/booking/booking-deadlines.ts';
import {
  EXTENDABLE_STATUSES,
  extensionIssue,
  extensionRentalCents,
  extraDays,
} from '#shared/booking/extensions.ts';
import { centsToDecimal, toCents } from '#shared/booking/pricing.ts';
import { platformShare } from '#shared/booking/service-fee.ts';
import { campusToday } from '#shared/calendar.ts';
import type { Extension } from '#shared/schemas/extensions.ts';
import { dayWhenWritten } from '../../../booking-words.ts';
import type { Db } from '../../../db/client.ts';
import { sqlState, transaction } from '../../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { emailVerificationService } from '../../email-verification/service.ts';
import { ledgerService } from '../../ledger/service.ts';
import { notificationService } from '../../notifications/service.ts';
import { paymentStepService } from '../../payment-steps/service.ts';
import { type ExtensionDeps, nowOf } from '../deps.ts';
import * as reservationQueries from '../queries.ts';
import { paymentAuthorisedWords, requestedTextForBorrower, requestedTextForLender } from './notices.ts';
import * as queries from './queries.ts';
import { toExtension } from './views.ts';

// Decision 031: the borrower of an approved or active booking asks for more days. A paid extension is
// authorised like a booking (the card at request, through the provider adapter), but for the extra
// rental only and on its own payment intent, captured on approval.

/** Other bookings' days an extension may not take up front: requests waiting and bookings made. */
const BLOCKING_STATUSES = ['pending', ...BOOKED_STATUSES] as const;

const PENDING_ALREADY: MessageDescriptor = msg`You already asked for more days on this booking. Wait for the answer or cancel it.`;

/** Why a booking in this status cannot get more days (only an approved or picked-up one can). */
const NOT_EXTENDABLE: Record<string, MessageDescriptor> = {
  pending: msg`A pending reservation cannot be extended: only an approved or picked-up booking can.`,
  declined: msg`A declined reservation cannot be extended: only an approved or picked-up booking can.`,
  cancelled: msg`A cancelled reservation cannot be extended: only an approved or picked-up booking can.`,
  returned: msg`A returned reservation cannot be extended: only an approved or picked-up booking can.`,
  claimed: msg`A claimed reservation cannot be extended: only an approved or picked-up booking can.`,
  disputed: msg`A disputed reservation cannot be extended: only an approved or picked-up booking can.`,
  completed: msg`A completed reservation cannot be extended: only an approved or picked-up booking can.`,
};

/** The booking, checked extendable by this borrower to this day; answers the extra rental. */
async function checkRequest(
  deps: ExtensionDeps,
  db: Db,
  userId: string,
  reservationId: string,
  endDate: string,
) {
  const booking = await queries.findBooking(db, reservationId);
  if (!booking) throw notFound(msg`Reservation not found.`);
  if (booking.providerId === userId) throw forbidden(msg`Only the borrower can ask for more days.`);
  if (booking.borrowerId !== userId) throw forbidden(msg`You are not part of this reservation.`);
  if (!(EXTENDABLE_STATUSES as readonly string[]).includes(booking.status)) {
    throw conflict(
      NOT_EXTENDABLE[booking.status] ??
        msg`This reservation cannot be extended: only an approved or picked-up booking can.`,
      'ILLEGAL_STATUS_CHANGE',
    );
  }
  if (booking.itemGone) throw conflict(msg`This item is no longer offered.`, 'ITEM_UNAVAILABLE');
  const item = {
    ...booking,
    rentalPeriod: booking.rentalPeriod as 'day' | 'week' | 'month' | null,
  };
  const problem = extensionIssue(booking, endDate, item, campusToday(deps.timeZone).date);
  if (problem) throw badRequest(problem, [{ path: 'endDate', message: problem }]);
  // Before any card is asked: one request at a time (the unique index decides a race).
  if ((await queries.pendingForReservations(db, [booking.id])).length) {
    throw conflict(PENDING_ALREADY, 'EXTENSION_PENDING');
  }
  const extra = extraDays(booking, endDate);
  const taken = await queries.otherReservationsOverlapping(
    db,
    booking.itemId,
    booking.id,
    extra,
    BLOCKING_STATUSES,
  );
  if (taken.length) {
    const first = taken[0]!;
    const from = dayWhenWritten(first.startDate > extra.startDate ? first.startDate : extra.startDate);
    throw conflict(
      first.status === 'pending'
        ? msg`The item is requested by someone else from ${from}. Choose an earlier end date.`
        : msg`The item is booked by someone else from ${from}. Choose an earlier end date.`,
      'DATES_TAKEN',
    );
  }
  const rentalCents = extensionRentalCents(item, booking, endDate);
  // Decision 055: the service fee on the extra rental, at today's rates, held and charged with it.
  return { booking, rentalCents, share: platformShare(rentalCents, deps.fees) };
}

/** Step 1 for a paid extension: an authorisation of the server's own extra rental (409 when the dialog's differs). */
export async function createPaymentIntent(
  deps: ExtensionDeps,
  borrower: { id: string; email: string; isVerified: boolean },
  reservationId: string,
  input: { endDate: string; rentalAmount: string },
) {
  emailVerificationService.requireVerified(borrower);
  const { booking, rentalCents, share } = await checkRequest(
    deps,
    deps.db,
    borrower.id,
    reservationId,
    input.endDate,
  );
  const heldCents = rentalCents + share.serviceFeeCents;
  if (toCents(input.rentalAmount) !== rentalCents) {
    const rental = `$${centsToDecimal(rentalCents)}`;
    throw conflict(
      msg`The price has changed: the extra rental is ${rental}. Please review and try again.`,
      'AMOUNT_MISMATCH',
    );
  }
  if (rentalCents === 0) throw badRequest(msg`These days cost nothing more: ask without a payment.`);
  const intent = await deps.payments.createPaymentIntent({
    amountCents: heldCents,
    currency: 'usd',
    customerId: null,
    // No itemId: this authorisation can never pay for a new reservation, only this extension.
    metadata: { extensionOf: booking.id, borrowerId: borrower.id, endDate: input.endDate },
    idempotencyKey: `pi-ext-${booking.id}-${input.endDate}-${heldCents}-${Date.now()}`,
  });
  await paymentStepService.recordIntent(deps.db, {
    id: intent.id,
    borrowerId: borrower.id,
    itemId: null,
    extensionOf: booking.id,
    startDate: booking.endDate,
    endDate: input.endDate,
    rentalCents,
    depositCents: 0,
    serviceFeeCents: share.serviceFeeCents,
    amountCents: heldCents,
  });
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    amount: centsToDecimal(heldCents)!,
    serviceFeeAmount: centsToDecimal(share.serviceFeeCents)!,
    // A request made now lapses by then, its hold released (decision 057).
    answerBy: extensionLapsesAt(booking.endDate, deps.timeZone, nowOf(deps)).toISOString(),
  };
}

/** The borrower asks for more days; a paid extension brings its confirmed authorisation. */
export async function request(
  deps: ExtensionDeps,
  borrower: { id: string; fullName: string; email: string; isVerified: boolean },
  reservationId: string,
  input: { endDate: string; paymentIntentId?: string | null },
): Promise<Extension> {
  emailVerificationService.requireVerified(borrower);
  const { rentalCents, share } = await checkRequest(deps, deps.db, borrower.id, reservationId, input.endDate);
  const heldCents = rentalCents + share.serviceFeeCents;
  const intentId = rentalCents > 0 ? (input.paymentIntentId ?? null) : null;
  let card: { type: string; last4: string | null } | null = null;
  if (rentalCents > 0) {
    if (!intentId)
      throw new AppError(402, 'PAYMENT_REQUIRED', msg`Please pay for the extra days to send this request.`);
    const intent = await deps.payments.retrievePaymentIntent(intentId).catch(() => null);
    if (
      !intent ||
      intent.metadata.borrowerId !== borrower.id ||
      intent.metadata.extensionOf !== reservationId
    ) {
      throw badRequest(msg`That payment does not belong to this booking.`);
    }
    if (intent.status === 'canceled') {
      throw conflict(msg`That payment was released. Please pay again.`, 'PAYMENT_RELEASED');
    }
    if (intent.status === 'requires_action') {
      throw new AppError(
        402,
        'PAYMENT_NEEDS_AUTHENTICATION',
        msg`Your bank wants to confirm this card (3-D Secure), which was not finished. Nothing was changed: try again or use another card.`,
      );
    }
    if (intent.status !== 'requires_capture') {
      throw new AppError(
        402,
        'PAYMENT_NOT_AUTHORISED',
        msg`The card payment was not completed. Nothing was changed: try again or use another card.`,
      );
    }
    if (intent.amountCents !== heldCents) {
      throw conflict(msg`The payment does not match the price. Please start again.`, 'AMOUNT_MISMATCH');
    }
    card = intent.card ? { type: intent.card.type, last4: intent.card.last4 } : null;
  }
  try {
    const row = await transaction(deps.db, async (tx) => {
      const booking = await queries.findBooking(tx, reservationId);
      if (!booking) throw notFound(msg`Reservation not found.`);
      await reservationQueries.lockItem(tx, booking.itemId);
      await reservationQueries.lockReservation(tx, reservationId);
      // Checked again under the locks: the booking or its neighbours may have changed meanwhile.
      const checked = await checkRequest(deps, tx, borrower.id, reservationId, input.endDate);
      if (checked.rentalCents !== rentalCents || checked.share.serviceFeeCents !== share.serviceFeeCents) {
        throw conflict(msg`The price has changed. Please start again.`, 'AMOUNT_MISMATCH');
      }
      // When the extra rental was authorised, at the latest: the request ends before it lapses.
      let authorisedAt: Date | null = null;
      if (intentId) {
        const recorded = await paymentStepService.lockIntent(tx, intentId);
        if (!recorded || recorded.borrowerId !== borrower.id || recorded.extensionOf !== reservationId) {
          throw badRequest(msg`That payment does not belong to this booking.`);
        }
        if (recorded.status === 'used') {
          throw conflict(msg`That payment is already used by another request.`, 'PAYMENT_ALREADY_USED');
        }
        if (recorded.status === 'abandoned') {
          throw conflict(msg`That payment was released. Please pay again.`, 'PAYMENT_RELEASED');
        }
        if (
          recorded.startDate !== checked.booking.endDate ||
          recorded.endDate !== input.endDate ||
          recorded.rentalCents !== rentalCents ||
          recorded.serviceFeeCents !== share.serviceFeeCents
        ) {
          throw conflict(
            msg`That payment was made for another end date or amount. Please pay for this one.`,
            'PAYMENT_MISMATCH',
          );
        }
        await paymentStepService.markExtensionIntentUsed(tx, intentId);
        authorisedAt = recorded.createdAt;
      }
      const ext = await queries.insertExtension(tx, {
        reservationId,
        itemId: checked.booking.itemId,
        borrowerId: borrower.id,
        providerId: checked.booking.providerId,
        previousEndDate: checked.booking.endDate,
        newEndDate: input.endDate,
        rentalCents,
        // The platform's share at the rates of this request (decision 055).
        serviceFeeCents: share.serviceFeeCents,
        serviceFeePercent: deps.fees.serviceFeePercent,
        lenderCommissionCents: share.lenderCommissionCents,
        lenderCommissionPercent: deps.fees.lenderCommissionPercent,
        paymentIntentId: intentId,
        authorisedAt,
      });
      const names = { item: checked.booking.itemTitle };
      const who = borrower.fullName;
      const lender = checked.booking.lenderName;
      await notificationService.notify(tx, {
        userId: checked.booking.providerId,
        type: 'extension_requested',
        text: () => requestedTextForLender({ who, ...names }, ext, checked.booking.endDate),
        relatedReservationId: reservationId,
        relatedItemId: checked.booking.itemId,
      });
      await notificationService.notify(tx, {
        userId: borrower.id,
        type: 'extension_requested',
        text: () => requestedTextForBorrower({ lender, ...names }, ext),
        relatedReservationId: reservationId,
        relatedItemId: checked.booking.itemId,
      });
      await ledgerService.hold(tx, {
        reservationId,
        borrowerId: borrower.id,
        paymentIntentId: intentId,
        amountCents: heldCents,
        description: () => paymentAuthorisedWords(names.item, input.endDate),
        card,
      });
      return ext;
    });
    return toExtension(row, deps.timeZone);
  } catch (error) {
    if (sqlState(error) === '23505') {
      const text = String((error as { cause?: unknown }).cause ?? error);
      if (text.includes('reservation_extensions_one_pending'))
        throw conflict(PENDING_ALREADY, 'EXTENSION_PENDING');
      if (text.includes('reservation_extensions_payment_intent_unique')) {
        throw conflict(msg`That payment is already used by another request.`, 'PAYMENT_ALREADY_USED');
      }
    }
    throw error;
  }
}

/**
 * The 3-D Secure return (the bank sends the borrower back to /reservations): the request for more
 * days is made from what the payment was recorded for; a second return finds it made. Answers
 * whether this call made it.
 */
export async function completeExtensionPayment(
  deps: ExtensionDeps,
  borrower: { id: string; fullName: string; email: string; isVerified: boolean },
  recorded: { id: string; extensionOf: string | null; endDate: string },
): Promise<boolean> {
  if (await queries.findByPaymentIntent(deps.db, recorded.id)) return false;
  try {
    await request(deps, borrower, recorded.extensionOf!, {
      endDate: recorded.endDate,
      paymentIntentId: recorded.id,
    });
    return true;
  } catch (error) {
    // Two returns at once (a reload): the other one made it.
    if (error instanceof AppError && (await queries.findByPaymentIntent(deps.db, recorded.id))) return false;
    throw error;
  }
}
