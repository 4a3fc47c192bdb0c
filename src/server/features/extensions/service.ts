import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { addDays } from '#shared/availability.ts';
import { campusMidnight, campusToday } from '#shared/calendar.ts';
import {
  EXTENDABLE_STATUSES,
  type ExtensionStatus,
  extensionIssue,
  extensionRentalCents,
  extraDays,
} from '#shared/extensions.ts';
import { formatDayLabel } from '#shared/format.ts';
import { centsToDecimal, toCents } from '#shared/pricing.ts';
import type { Extension } from '#shared/schemas/extensions.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import {
  BOOKED_FOR_OVERLAPPING_DATES,
  dayWhenWritten,
  overlapDeclinedText,
  writtenFor,
} from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { sqlState, transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { billingService } from '../billing/service.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import { paymentStepService } from '../payment-steps/service.ts';
import * as queries from './queries.ts';

// Issue 18 item 3, decision 031: the borrower of an approved or active booking asks for more days; the
// lender approves or declines; unanswered, the request lapses when the booking's current last day is
// over. A paid extension is authorised like a booking (the card at request, through the provider
// adapter), but for the extra rental only and on its own payment intent: captured on approval, released
// on decline, expiry or cancel, by payment steps the job queue runs (decision 012). Approval moves the
// booking's end date under the item's lock, so of two approvals that want the same days one wins.

export interface ExtensionDeps {
  db: Db;
  payments: PaymentProvider;
  jobs: JobQueue;
  timeZone: string;
}

/** Other bookings' days an extension may not take up front: requests waiting and bookings made. */
const BLOCKING_STATUSES = ['pending', 'approved', 'active'] as const;
/** What approval re-checks under the lock: days actually booked (pending requests lose to it). */
const BOOKED = ['approved', 'active'] as const;

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

/** A request for more days already answered (or lapsed, or taken back). */
const ALREADY_ANSWERED: Record<string, MessageDescriptor> = {
  approved: msg`This request for more days was already approved.`,
  declined: msg`This request for more days was already declined.`,
  cancelled: msg`This request for more days was already cancelled.`,
  expired: msg`This request for more days was already expired.`,
};

/** A pending request lapses at the end of the booking's current last day (campus time). */
function lapsesAt(previousEndDate: string, timeZone: string): Date {
  return campusMidnight(addDays(previousEndDate, 1), timeZone);
}

/** A booking's extensions as its card shows them: the one waiting, and the approved ones' payments. */
export interface ExtensionSummary {
  pending: Extension | null;
  approvedRentalCents: number;
  approved: { previousEndDate: string; newEndDate: string; rentalCents: number }[];
}

export function toExtension(row: queries.ExtensionRow, timeZone: string): Extension {
  return {
    id: row.id,
    reservationId: row.reservationId,
    previousEndDate: row.previousEndDate,
    newEndDate: row.newEndDate,
    rentalAmount: centsToDecimal(row.rentalCents)!,
    status: row.status as ExtensionStatus,
    respondBy: row.status === 'pending' ? lapsesAt(row.previousEndDate, timeZone).toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

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
  return { booking, rentalCents: extensionRentalCents(item, booking, endDate) };
}

/** Lets go of an extension's authorisation that was never charged. */
async function release(
  tx: Db,
  deps: ExtensionDeps,
  ext: queries.ExtensionRow,
  purpose: 'decline' | 'cancellation' | 'expiry' | 'overlap',
) {
  if (!ext.paymentIntentId) return;
  await paymentStepService.enqueue(tx, deps.jobs, {
    paymentIntentId: ext.paymentIntentId,
    reservationId: ext.reservationId,
    kind: 'release',
    purpose,
    amountCents: ext.rentalCents,
  });
}

/**
 * Runs `apply` on the extension in one transaction that holds the item's lock, then the booking's, then
 * the extension's: the reservations' lock order with one more row at its end.
 */
async function withLocks<T>(
  deps: ExtensionDeps,
  id: string,
  apply: (tx: Db, ext: queries.ExtensionRow, booking: queries.Booking) => Promise<T>,
): Promise<T> {
  const found = await queries.findExtension(deps.db, id);
  if (!found) throw notFound(msg`Extension not found.`);
  const result = await transaction(deps.db, async (tx) => {
    await queries.lockItem(tx, found.itemId);
    await queries.lockReservation(tx, found.reservationId);
    const ext = await queries.lockExtension(tx, id);
    const booking = await queries.findBooking(tx, found.reservationId);
    if (!ext || !booking) throw notFound(msg`Extension not found.`);
    return apply(tx, ext, booking);
  });
  return result;
}

function requirePending(ext: queries.ExtensionRow) {
  if (ext.status !== 'pending') {
    throw conflict(
      ALREADY_ANSWERED[ext.status] ?? msg`This request for more days was already answered.`,
      'ILLEGAL_STATUS_CHANGE',
    );
  }
}

function lenderOnly(ext: queries.ExtensionRow, userId: string) {
  if (ext.providerId === userId) return;
  throw forbidden(
    ext.borrowerId === userId
      ? msg`Only the lender can answer this request.`
      : msg`You are not part of this reservation.`,
  );
}

export const extensionService = {
  /** Step 1 for a paid extension: an authorisation of the server's own extra rental (409 when the dialog's differs). */
  async createPaymentIntent(
    deps: ExtensionDeps,
    borrower: { id: string; email: string; isVerified: boolean },
    reservationId: string,
    input: { endDate: string; rentalAmount: string },
  ) {
    emailVerificationService.requireVerified(borrower);
    const { booking, rentalCents } = await checkRequest(
      deps,
      deps.db,
      borrower.id,
      reservationId,
      input.endDate,
    );
    if (toCents(input.rentalAmount) !== rentalCents) {
      const rental = `$${centsToDecimal(rentalCents)}`;
      throw conflict(
        msg`The price has changed: the extra rental is ${rental}. Please review and try again.`,
        'AMOUNT_MISMATCH',
      );
    }
    if (rentalCents === 0) throw badRequest(msg`These days cost nothing more: ask without a payment.`);
    const intent = await deps.payments.createPaymentIntent({
      amountCents: rentalCents,
      currency: 'usd',
      customerId: null,
      // No itemId: this authorisation can never pay for a new reservation, only this extension.
      metadata: { extensionOf: booking.id, borrowerId: borrower.id, endDate: input.endDate },
      idempotencyKey: `pi-ext-${booking.id}-${input.endDate}-${rentalCents}-${Date.now()}`,
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
      amountCents: rentalCents,
    });
    return {
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.id,
      amount: centsToDecimal(rentalCents)!,
    };
  },

  /** The borrower asks for more days; a paid extension brings its confirmed authorisation. */
  async request(
    deps: ExtensionDeps,
    borrower: { id: string; fullName: string; email: string; isVerified: boolean },
    reservationId: string,
    input: { endDate: string; paymentIntentId?: string | null },
  ): Promise<Extension> {
    emailVerificationService.requireVerified(borrower);
    const { rentalCents } = await checkRequest(deps, deps.db, borrower.id, reservationId, input.endDate);
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
      if (intent.amountCents !== rentalCents) {
        throw conflict(msg`The payment does not match the price. Please start again.`, 'AMOUNT_MISMATCH');
      }
      card = intent.card ? { type: intent.card.type, last4: intent.card.last4 } : null;
    }
    try {
      const row = await transaction(deps.db, async (tx) => {
        const booking = await queries.findBooking(tx, reservationId);
        if (!booking) throw notFound(msg`Reservation not found.`);
        await queries.lockItem(tx, booking.itemId);
        await queries.lockReservation(tx, reservationId);
        // Checked again under the locks: the booking or its neighbours may have changed meanwhile.
        const checked = await checkRequest(deps, tx, borrower.id, reservationId, input.endDate);
        if (checked.rentalCents !== rentalCents) {
          throw conflict(msg`The price has changed. Please start again.`, 'AMOUNT_MISMATCH');
        }
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
            recorded.rentalCents !== rentalCents
          ) {
            throw conflict(
              msg`That payment was made for another end date or amount. Please pay for this one.`,
              'PAYMENT_MISMATCH',
            );
          }
          await paymentStepService.markExtensionIntentUsed(tx, intentId);
        }
        const ext = await queries.insertExtension(tx, {
          reservationId,
          itemId: checked.booking.itemId,
          borrowerId: borrower.id,
          providerId: checked.booking.providerId,
          previousEndDate: checked.booking.endDate,
          newEndDate: input.endDate,
          rentalCents,
          paymentIntentId: intentId,
        });
        const who = borrower.fullName;
        const lender = checked.booking.lenderName;
        const item = checked.booking.itemTitle;
        const extra = `$${centsToDecimal(rentalCents)}`;
        await notificationService.notify(tx, {
          userId: checked.booking.providerId,
          type: 'extension_requested',
          text: () => {
            const until = formatDayLabel(input.endDate);
            const end = formatDayLabel(checked.booking.endDate);
            return {
              title: msg`More days requested`,
              message: rentalCents
                ? msg`${who} asks to keep ${item} until ${until} instead of ${end} for ${extra} more. Please answer by the end of ${end}.`
                : msg`${who} asks to keep ${item} until ${until} instead of ${end}. Please answer by the end of ${end}.`,
            };
          },
          relatedReservationId: reservationId,
          relatedItemId: checked.booking.itemId,
        });
        await notificationService.notify(tx, {
          userId: borrower.id,
          type: 'extension_requested',
          text: () => {
            const until = formatDayLabel(input.endDate);
            return {
              title: msg`More days requested`,
              message: rentalCents
                ? msg`You asked ${lender} to keep ${item} until ${until}. ${extra} is held on your card and charged only if they approve.`
                : msg`You asked ${lender} to keep ${item} until ${until}.`,
            };
          },
          relatedReservationId: reservationId,
          relatedItemId: checked.booking.itemId,
        });
        await billingService.record(tx, [
          {
            kind: 'payment',
            userId: borrower.id,
            reservationId,
            stripePaymentIntentId: intentId,
            amountCents: rentalCents,
            status: 'pending',
            description: await writtenFor(tx, borrower.id, () => {
              const until = formatDayLabel(input.endDate);
              return msg`Payment authorised for ${item} (extended to ${until})`;
            }),
            paymentMethodType: card?.type ?? null,
            paymentMethodLast4: card?.last4 ?? null,
          },
        ]);
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
  },

  /**
   * The 3-D Secure return (the bank sends the borrower back to /reservations): the request for more
   * days is made from what the payment was recorded for; a second return finds it made. Answers
   * whether this call made it.
   */
  async completePayment(
    deps: ExtensionDeps,
    borrower: { id: string; fullName: string; email: string; isVerified: boolean },
    recorded: { id: string; extensionOf: string | null; endDate: string },
  ): Promise<boolean> {
    if (await queries.findByPaymentIntent(deps.db, recorded.id)) return false;
    try {
      await extensionService.request(deps, borrower, recorded.extensionOf!, {
        endDate: recorded.endDate,
        paymentIntentId: recorded.id,
      });
      return true;
    } catch (error) {
      // Two returns at once (a reload): the other one made it.
      if (error instanceof AppError && (await queries.findByPaymentIntent(deps.db, recorded.id)))
        return false;
      throw error;
    }
  },

  /** The lender approves: the end date moves, the extra rental is charged, overlapping requests lose. */
  async approve(
    deps: ExtensionDeps,
    lender: { id: string; email: string; isVerified: boolean },
    id: string,
  ): Promise<Extension> {
    emailVerificationService.requireVerified(lender);
    const row = await withLocks(deps, id, async (tx, ext, booking) => {
      lenderOnly(ext, lender.id);
      requirePending(ext);
      if (
        !(EXTENDABLE_STATUSES as readonly string[]).includes(booking.status) ||
        booking.endDate !== ext.previousEndDate
      ) {
        throw conflict(
          msg`The booking changed since the request: it cannot be extended now.`,
          'ILLEGAL_STATUS_CHANGE',
        );
      }
      const extra = extraDays(booking, ext.newEndDate);
      if (
        (await queries.otherReservationsOverlapping(tx, booking.itemId, booking.id, extra, BOOKED)).length
      ) {
        throw conflict(msg`Those days are booked by someone else now. Decline this request.`, 'DATES_TAKEN');
      }
      await queries.moveEndDate(tx, booking.id, ext.newEndDate);
      // The return reminders count from the new last day: those sent for the old one may go again.
      await queries.forgetReturnReminders(tx, booking.id);
      await queries.setStatus(tx, ext.id, 'approved');
      await notificationService.actedOn(tx, lender.id, booking.id, ['extension_requested']);
      const lenderName = booking.lenderName;
      const borrower = booking.borrowerName;
      const item = booking.itemTitle;
      const extraAmount = `$${centsToDecimal(ext.rentalCents)}`;
      await notificationService.notify(tx, {
        userId: ext.borrowerId,
        type: 'extension_approved',
        text: () => {
          const until = formatDayLabel(ext.newEndDate);
          return {
            title: msg`More days approved`,
            message: ext.rentalCents
              ? msg`${lenderName} approved: keep ${item} until ${until}. Your card is charged ${extraAmount} now.`
              : msg`${lenderName} approved: keep ${item} until ${until}.`,
          };
        },
        relatedReservationId: booking.id,
        relatedItemId: booking.itemId,
      });
      await notificationService.notify(tx, {
        userId: ext.providerId,
        type: 'extension_approved',
        text: () => {
          const until = formatDayLabel(ext.newEndDate);
          return {
            title: msg`More days approved`,
            message: ext.rentalCents
              ? msg`${borrower} now returns ${item} on ${until}. You earn ${extraAmount} more.`
              : msg`${borrower} now returns ${item} on ${until}.`,
          };
        },
        relatedReservationId: booking.id,
        relatedItemId: booking.itemId,
      });
      if (ext.paymentIntentId) {
        // Rows wait as pending until the capture step has charged the card (decision 012).
        await billingService.settle(
          tx,
          {
            reservationId: booking.id,
            userId: ext.borrowerId,
            fromStatus: 'pending',
            stripePaymentIntentId: ext.paymentIntentId,
          },
          {
            description: await writtenFor(tx, ext.borrowerId, () => {
              const until = formatDayLabel(ext.newEndDate);
              return msg`Payment for ${item} (extended to ${until})`;
            }),
          },
        );
        await billingService.record(tx, [
          {
            kind: 'earning',
            userId: ext.providerId,
            reservationId: booking.id,
            stripePaymentIntentId: ext.paymentIntentId,
            amountCents: ext.rentalCents,
            status: 'pending',
            description: await writtenFor(tx, ext.providerId, () => {
              const until = formatDayLabel(ext.newEndDate);
              return msg`Earning: ${item} (extended to ${until}) lent to ${borrower}`;
            }),
          },
        ]);
        await paymentStepService.enqueue(tx, deps.jobs, {
          paymentIntentId: ext.paymentIntentId,
          reservationId: booking.id,
          kind: 'capture',
          purpose: 'approval',
          amountCents: ext.rentalCents,
        });
      }
      // Requests for those days can no longer be met: declined, their holds released.
      for (const other of await queries.otherReservationsOverlapping(tx, booking.itemId, booking.id, extra, [
        'pending',
      ])) {
        await extensionService.declineOverlappingRequest(tx, deps, other, booking.itemTitle);
      }
      return (await queries.findExtension(tx, ext.id))!;
    });
    return toExtension(row, deps.timeZone);
  },

  /** The lender declines: the hold is released, the booking keeps its end date. */
  async decline(deps: ExtensionDeps, userId: string, id: string): Promise<Extension> {
    const row = await withLocks(deps, id, async (tx, ext, booking) => {
      lenderOnly(ext, userId);
      requirePending(ext);
      await queries.setStatus(tx, ext.id, 'declined');
      await notificationService.actedOn(tx, userId, booking.id, ['extension_requested']);
      const lender = booking.lenderName;
      const item = booking.itemTitle;
      await notificationService.notify(tx, {
        userId: ext.borrowerId,
        type: 'extension_declined',
        text: () => {
          const due = formatDayLabel(booking.endDate);
          return {
            title: msg`More days declined`,
            message: ext.paymentIntentId
              ? msg`${lender} declined more days for ${item}: it is still due back on ${due}. The hold on your card was released.`
              : msg`${lender} declined more days for ${item}: it is still due back on ${due}.`,
          };
        },
        relatedReservationId: booking.id,
        relatedItemId: booking.itemId,
      });
      await release(tx, deps, ext, 'decline');
      return (await queries.findExtension(tx, ext.id))!;
    });
    return toExtension(row, deps.timeZone);
  },

  /** The borrower takes the request back before the answer. */
  async cancel(deps: ExtensionDeps, userId: string, id: string): Promise<Extension> {
    const row = await withLocks(deps, id, async (tx, ext, booking) => {
      if (ext.borrowerId !== userId) {
        throw forbidden(
          ext.providerId === userId
            ? msg`Only the borrower can take back this request.`
            : msg`You are not part of this reservation.`,
        );
      }
      requirePending(ext);
      await queries.setStatus(tx, ext.id, 'cancelled');
      const borrower = booking.borrowerName;
      const item = booking.itemTitle;
      await notificationService.notify(tx, {
        userId: ext.providerId,
        type: 'extension_cancelled',
        text: () => {
          const until = formatDayLabel(ext.newEndDate);
          return {
            title: msg`More days no longer needed`,
            message: msg`${borrower} took back the request to keep ${item} until ${until}.`,
          };
        },
        relatedReservationId: booking.id,
        relatedItemId: booking.itemId,
      });
      await release(tx, deps, ext, 'cancellation');
      return (await queries.findExtension(tx, ext.id))!;
    });
    return toExtension(row, deps.timeZone);
  },

  /** Pending requests whose booking's current last day is over: they lapse, their holds released, both told. */
  async expirePending(deps: ExtensionDeps, now = new Date()): Promise<number> {
    const today = campusToday(deps.timeZone, now).date;
    let count = 0;
    for (const { id } of await queries.lapsedPending(deps.db, today)) {
      const expired = await withLocks(deps, id, async (tx, ext, booking) => {
        if (ext.status !== 'pending') return false;
        await queries.setStatus(tx, ext.id, 'expired');
        const lender = booking.lenderName;
        const borrower = booking.borrowerName;
        const item = booking.itemTitle;
        const title = msg`Request for more days expired`;
        const texts: [string, () => NoticeText][] = [
          [
            ext.borrowerId,
            () => {
              const until = formatDayLabel(ext.newEndDate);
              return {
                title,
                message: ext.paymentIntentId
                  ? msg`${lender} did not answer your request to keep ${item} until ${until}. The hold on your card was released.`
                  : msg`${lender} did not answer your request to keep ${item} until ${until}.`,
              };
            },
          ],
          [
            ext.providerId,
            () => ({
              title,
              message: msg`${borrower}'s request for more days with ${item} expired unanswered.`,
            }),
          ],
        ];
        for (const [userId, text] of texts) {
          await notificationService.notify(tx, {
            userId,
            type: 'extension_declined',
            text,
            relatedReservationId: booking.id,
            relatedItemId: booking.itemId,
          });
        }
        await release(tx, deps, ext, 'expiry');
        return true;
      }).catch((error) => {
        if (error instanceof AppError) return false;
        throw error;
      });
      if (expired) count++;
    }
    return count;
  },

  /**
   * What My Reservations' cards show of each booking's extensions: the request waiting for the lender,
   * and the extra rental of those approved.
   */
  async summaryFor(
    db: Db,
    reservationIds: string[],
    timeZone: string,
  ): Promise<Map<string, ExtensionSummary>> {
    const summary = new Map<string, ExtensionSummary>();
    const entry = (id: string) => {
      const found = summary.get(id) ?? { pending: null, approvedRentalCents: 0, approved: [] };
      summary.set(id, found);
      return found;
    };
    for (const row of await queries.pendingForReservations(db, reservationIds)) {
      entry(row.reservationId).pending = toExtension(row, timeZone);
    }
    for (const row of await queries.approvedFor(db, reservationIds)) {
      const found = entry(row.reservationId);
      found.approvedRentalCents += row.rentalCents;
      found.approved.push(row);
    }
    return summary;
  },

  /**
   * Decision 034: an early return (under the booking's locks) gives back unused days an approved
   * extension paid for too: its payments, each with the end it moved and its own payment intent.
   */
  approvedOf(tx: Db, reservationId: string) {
    return queries.extensionsOfReservation(tx, reservationId, ['approved']);
  },

  /**
   * Inside a reservation's approval (under the item's lock): pending extensions of other bookings that
   * want these days can no longer be met, so they are declined and their holds released.
   */
  async bookingApproved(
    tx: Db,
    deps: ExtensionDeps,
    booking: { id: string; itemId: string; startDate: string; endDate: string },
  ): Promise<void> {
    for (const ext of await queries.pendingOverlapping(tx, booking.itemId, booking, booking.id)) {
      await queries.setStatus(tx, ext.id, 'declined');
      const owner = await queries.findBooking(tx, ext.reservationId);
      const item = owner?.itemTitle;
      await notificationService.notify(tx, {
        userId: ext.borrowerId,
        type: 'extension_declined',
        text: () => {
          const until = formatDayLabel(ext.newEndDate);
          const title = msg`More days declined`;
          if (!item) {
            return {
              title,
              message: ext.paymentIntentId
                ? msg`Your request to keep the item until ${until} was declined: those days were booked by someone else. The hold on your card was released.`
                : msg`Your request to keep the item until ${until} was declined: those days were booked by someone else.`,
            };
          }
          return {
            title,
            message: ext.paymentIntentId
              ? msg`Your request to keep ${item} until ${until} was declined: those days were booked by someone else. The hold on your card was released.`
              : msg`Your request to keep ${item} until ${until} was declined: those days were booked by someone else.`,
          };
        },
        relatedReservationId: ext.reservationId,
        relatedItemId: ext.itemId,
      });
      await release(tx, deps, ext, 'overlap');
    }
  },

  /**
   * Inside a reservation's cancellation or return (under its locks): a pending extension ends with it
   * (its hold released). On a cancellation an approved extension's extra rental is given back in full:
   * its capture called off when it has not run, refunded when it has.
   */
  async bookingEnded(tx: Db, deps: ExtensionDeps, reservationId: string, how: 'cancelled' | 'completed') {
    for (const ext of await queries.extensionsOfReservation(tx, reservationId, ['pending'])) {
      await queries.setStatus(tx, ext.id, 'cancelled');
      await release(tx, deps, ext, 'cancellation');
    }
    if (how !== 'cancelled') return;
    for (const ext of await queries.extensionsOfReservation(tx, reservationId, ['approved'])) {
      if (!ext.paymentIntentId) continue;
      const calledOff = await paymentStepService.supersede(tx, ext.paymentIntentId, 'capture');
      if (calledOff.length) {
        await billingService.discard(tx, {
          reservationId,
          stripePaymentIntentId: ext.paymentIntentId,
          kind: 'earning',
          statuses: ['pending', 'failed'],
        });
        await release(tx, deps, ext, 'cancellation');
        continue;
      }
      const [billingId] = await billingService.record(tx, [
        {
          kind: 'refund',
          userId: ext.borrowerId,
          reservationId,
          stripePaymentIntentId: ext.paymentIntentId,
          amountCents: ext.rentalCents,
          status: 'pending',
          description: await writtenFor(tx, ext.borrowerId, () => {
            const until = formatDayLabel(ext.newEndDate);
            return msg`Refund of the extra days (to ${until}) of a cancelled booking`;
          }),
        },
      ]);
      await paymentStepService.enqueue(tx, deps.jobs, {
        paymentIntentId: ext.paymentIntentId,
        reservationId,
        kind: 'refund',
        purpose: 'cancellation',
        amountCents: ext.rentalCents,
        billingId: billingId ?? null,
      });
    }
  },

  /** An overlapping pending request loses to an approved extension (inside its transaction). */
  async declineOverlappingRequest(
    tx: Db,
    deps: ExtensionDeps,
    other: {
      id: string;
      borrowerId: string;
      startDate: string;
      endDate: string;
      depositCents: number;
      rentalCents: number;
      stripePaymentIntentId: string | null;
    },
    itemTitle: string,
  ) {
    await queries.declineRequest(
      tx,
      other.id,
      await writtenFor(tx, other.borrowerId, () => BOOKED_FOR_OVERLAPPING_DATES),
    );
    await notificationService.notify(tx, {
      userId: other.borrowerId,
      type: 'reservation_declined',
      text: () => overlapDeclinedText(itemTitle, other),
      relatedReservationId: other.id,
    });
    if (other.stripePaymentIntentId) {
      await paymentStepService.enqueue(tx, deps.jobs, {
        paymentIntentId: other.stripePaymentIntentId,
        reservationId: other.id,
        kind: 'release',
        purpose: 'overlap',
        amountCents: other.depositCents + other.rentalCents,
      });
    }
  },
};
