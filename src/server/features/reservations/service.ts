import { randomInt } from 'node:crypto';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { rangeIssue } from '#shared/availability.ts';
import { campusMidnight, campusToday } from '#shared/calendar.ts';
import { borrowerCancellationRefund, type CancellationPolicy } from '#shared/cancellation-policy.ts';
import { LIMITS, type PickupMethod, type RentalPeriod, type ReservationStatus } from '#shared/constants.ts';
import {
  CLAIM_WINDOW_HOURS,
  claimTimeProblem,
  confirmBy,
  isOverdue,
  overdueClaimFrom,
} from '#shared/deposit-claims.ts';
import { type EarlyReturnRefund, earlyReturnRefund, type RentalPayment } from '#shared/early-return.ts';
import { formatDayLabel, intlLocale } from '#shared/format.ts';
import { bookingLimitIssue, centsToDecimal, quote, toCents } from '#shared/pricing.ts';
import {
  ACTION_FOR_STATUS,
  type ReservationAction,
  type Role,
  transition,
} from '#shared/reservation-rules.ts';
import type { DisputeChat, Handover } from '#shared/schemas/handovers.ts';
import { PHOTO_NOT_UPLOADED } from '#shared/schemas/items.ts';
import type { OwnCases } from '#shared/schemas/moderation.ts';
import type { Availability, DepositClaim, Reservation } from '#shared/schemas/reservations.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import {
  BOOKED_FOR_OVERLAPPING_DATES,
  daysOf,
  dayWhenWritten,
  overlapDeclinedText,
  policyName,
  writtenFor,
} from '../../booking-words.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { sqlState, transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound, type UserMessage } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { billingService } from '../billing/service.ts';
import { conversationService } from '../conversations/service.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { type ExtensionSummary, extensionService } from '../extensions/service.ts';
import { handoverService } from '../handovers/service.ts';
import { impactService } from '../impact/service.ts';
import { moderationService } from '../moderation/service.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import { paymentStepService } from '../payment-steps/service.ts';
import { reviewService } from '../reviews/service.ts';
import { waitlistService } from '../waitlist/service.ts';
import * as queries from './queries.ts';

// Reservations (spec §4, issues 4 and 12): dates that make sense, the state machine, and the money
// flow. A status change, its notifications, its billing rows and the provider calls it needs (as
// payment steps, decision 012) commit together; the job queue makes the calls afterwards, with
// retries, so a crash or a provider outage never loses one and a retry never moves money twice.
// Every transition locks the item first and the reservation second: one order, so no deadlock.

export interface ReservationDeps {
  db: Db;
  payments: PaymentProvider;
  /** Where the payment steps' jobs go (sent in the status change's transaction). */
  jobs: JobQueue;
  timeZone: string;
  /** Pending requests expire after this many hours (RESERVATION_EXPIRY_HOURS): a request's answer-by time. */
  expiryHours?: number;
  log?: { error: (obj: object, msg: string) => void };
  /** The claim window's clock (issue 17): tests move it instead of waiting 48 hours. */
  clock?: Clock;
  /** Whose photo URLs a claim or a dispute may carry: only ones our storage gave out. */
  storage?: Pick<Storage, 'ownsPhotoUrl'>;
  /** The moderators (ADMIN_EMAILS): whether someone else can decide a claim a moderator is party to. */
  adminEmails?: readonly string[];
}

/** Every photo must be one our storage gave out (as an item's, issue 12). */
function requireOwnPhotos(deps: ReservationDeps, photos: readonly string[]) {
  if (photos.some((url) => !deps.storage?.ownsPhotoUrl(url))) {
    throw badRequest(PHOTO_NOT_UPLOADED, [{ path: 'photos', message: PHOTO_NOT_UPLOADED }]);
  }
}

const nowOf = (deps: ReservationDeps) => deps.clock?.now() ?? new Date();
const dollars = (cents: number) => `$${centsToDecimal(cents)}`;

/** An instant as the campus reads it: "Thu, Nov 26, 6:00 PM" (in the active language). */
function campusTime(at: Date, timeZone: string): string {
  return at.toLocaleString(intlLocale(), {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

const PAYMENT_ALREADY_USED: MessageDescriptor = msg`That payment is already used by another reservation.`;
const paymentReleased = () =>
  conflict(
    msg`That payment was released because no request followed it in time. Please pay again.`,
    'PAYMENT_RELEASED',
  );

/**
 * The approval notice (issue 16), with what approval does to the borrower's card: the whole authorised
 * amount is captured now, the deposit in it comes back on return (updateStatus 'complete').
 */
function approvedText(
  row: { stripePaymentIntentId: string | null; depositCents: number; rentalCents: number } & {
    startDate: string;
    endDate: string;
  },
  view: queries.ReservationRow,
): NoticeText {
  const lender = view.provider.fullName;
  const item = view.item.title;
  const { start, end } = daysOf(row);
  const title = msg`Reservation approved`;
  if (!row.stripePaymentIntentId) {
    return {
      title,
      message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your pickup code is in My Reservations.`,
    };
  }
  const total = dollars(row.depositCents + row.rentalCents);
  if (!row.depositCents) {
    return {
      title,
      message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your card is charged ${total} now. Your pickup code is in My Reservations.`,
    };
  }
  const rental = dollars(row.rentalCents);
  const deposit = dollars(row.depositCents);
  return {
    title,
    message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your card is charged ${total} now: ${rental} rental and a ${deposit} deposit that is refunded when you return the item. Your pickup code is in My Reservations.`,
  };
}

/** The day after a calendar day (YYYY-MM-DD). */
function dayAfter(date: string): string {
  const next = new Date(`${date}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * When a pending request expires unanswered (expirePending): its age reaches the expiry hours, or its
 * start day has passed, whichever comes first. Screens say "the lender answers by …" (issue 16).
 */
function respondBy(row: queries.ReservationRow, deps: ReservationDeps): string | null {
  if (row.status !== 'pending' || !deps.expiryHours) return null;
  return requestAnswerBy(row, deps.expiryHours, deps.timeZone).toISOString();
}

/** A pending request's answer-by instant (also when its lender is reminded, issue 18). */
export function requestAnswerBy(
  row: { createdAt: Date; startDate: string },
  expiryHours: number,
  timeZone: string,
): Date {
  const byAge = row.createdAt.getTime() + expiryHours * 3600_000;
  const byStart = campusMidnight(dayAfter(row.startDate), timeZone).getTime();
  return new Date(Math.min(byAge, byStart));
}

/** The return and its deposit claim as the card shows them: stage times, deadline and amounts. */
function claimOf(row: queries.ReservationRow, deps: ReservationDeps, overdue: boolean): DepositClaim | null {
  if (!row.returnedAt && !row.claimedAt && !overdue) return null;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const kept = row.awardedCents;
  return {
    returnedAt: iso(row.returnedAt),
    confirmBy: row.status === 'returned' && row.returnedAt ? confirmBy(row.returnedAt).toISOString() : null,
    claimableFrom: overdue ? overdueClaimFrom(row.endDate, deps.timeZone).toISOString() : null,
    amountClaimed: row.claimCents === null ? null : centsToDecimal(row.claimCents)!,
    description: row.claimDescription,
    photos: row.claimPhotos,
    claimedAt: iso(row.claimedAt),
    disputeNote: row.disputeNote,
    disputePhotos: row.disputePhotos,
    disputedAt: iso(row.disputedAt),
    amountAwarded: kept === null ? null : centsToDecimal(kept)!,
    depositRefund: kept === null ? null : centsToDecimal(row.depositCents - kept)!,
    resolvedAt: iso(row.resolvedAt),
  };
}

/** What other features add to a reservation's answer: its extensions and its handover records. */
interface Attached {
  extensions: Map<string, ExtensionSummary>;
  handovers: Map<string, Handover[]>;
}

async function attachedTo(deps: ReservationDeps, rows: readonly queries.ReservationRow[]): Promise<Attached> {
  const [extensions, handovers] = await Promise.all([
    extensionService.summaryFor(
      deps.db,
      rows.map((row) => row.id),
      deps.timeZone,
    ),
    handoverService.forReservations(deps.db, rows),
  ]);
  return { extensions, handovers };
}

function toReservation(
  row: queries.ReservationRow,
  viewerId: string,
  deps: ReservationDeps,
  attached: Attached,
): Reservation {
  const extensions = attached.extensions.get(row.id);
  const overdue = isOverdue(row, deps.timeZone, nowOf(deps));
  return {
    id: row.id,
    itemId: row.itemId,
    borrowerId: row.borrowerId,
    providerId: row.providerId,
    startDate: row.startDate,
    endDate: row.endDate,
    status: row.status as ReservationStatus,
    depositAmount: centsToDecimal(row.depositCents)!,
    rentalAmount: centsToDecimal(row.rentalCents)!,
    stripePaymentIntentId: row.stripePaymentIntentId,
    // Spec §4: the pickup code shows only while approved, and only to the borrower: the lender must
    // hear it from the borrower at the meetup, so 'Item Collected' proves they met (issue 12).
    pickupCode: viewerId === row.borrowerId && row.status === 'approved' ? row.pickupCode : null,
    declineReason: row.declineReason,
    cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
    cancelledBy: row.cancelledBy as Reservation['cancelledBy'],
    createdAt: row.createdAt.toISOString(),
    respondBy: respondBy(row, deps),
    overdue,
    claim: claimOf(row, deps, overdue),
    item: { ...row.item, pickupMethod: row.item.pickupMethod as PickupMethod },
    provider: row.provider,
    borrower: row.borrower,
    pendingExtension: extensions?.pending ?? null,
    extraRentalAmount: centsToDecimal(extensions?.approvedRentalCents ?? 0)!,
    pickedUpAt: row.pickedUpAt?.toISOString() ?? null,
    handovers: attached.handovers.get(row.id) ?? [],
    rentalPeriod: row.rentalPeriod as RentalPeriod | null,
    rentalPayments: rentalPaymentsOf(row, extensions?.approved ?? []).map((p) => ({
      fromEndDate: p.fromEndDate,
      endDate: p.endDate,
      rentalAmount: centsToDecimal(p.rentalCents)!,
    })),
    earlyReturn:
      row.bookedEndDate === null
        ? null
        : { bookedEndDate: row.bookedEndDate, rentalRefund: centsToDecimal(row.earlyRefundCents ?? 0)! },
  };
}

/**
 * The payments of a booking's rental (decision 034): its own, from the start to the end it was booked
 * with (before any extension moved it, or an early return shortened it), then each approved extension's.
 */
function rentalPaymentsOf(
  row: { endDate: string; bookedEndDate: string | null; rentalCents: number },
  approved: readonly { previousEndDate: string; newEndDate: string; rentalCents: number }[],
): RentalPayment[] {
  const ownEnd = approved.reduce(
    (end, ext) => (ext.previousEndDate < end ? ext.previousEndDate : end),
    row.bookedEndDate ?? row.endDate,
  );
  return [
    { fromEndDate: null, endDate: ownEnd, rentalCents: row.rentalCents },
    ...approved.map((ext) => ({
      fromEndDate: ext.previousEndDate,
      endDate: ext.newEndDate,
      rentalCents: ext.rentalCents,
    })),
  ];
}

/** Deleted, hidden by a moderator, or of a suspended owner: gone for borrowers (issue 6). */
function offered(item: queries.BookableItem | undefined): item is queries.BookableItem {
  return Boolean(item && !item.deletedAt && !item.hiddenAt && !item.ownerSuspendedAt);
}

/** The item, checked bookable by this borrower for these days; answers the server's own quote. */
async function checkBooking(
  deps: ReservationDeps,
  borrowerId: string,
  input: { itemId: string; startDate: string; endDate: string },
) {
  // Issue 17 item 5: nothing new while something borrowed is overdue.
  const overdue = await queries.findOverdueOf(
    deps.db,
    borrowerId,
    campusToday(deps.timeZone, nowOf(deps)).date,
  );
  if (overdue) {
    const item = overdue.title;
    const due = dayWhenWritten(overdue.endDate);
    throw new AppError(
      403,
      'OVERDUE_RETURN',
      msg`Please return ${item} first: it was due back on ${due}. You can request new items once it is returned.`,
    );
  }
  const item = await queries.findBookableItem(deps.db, input.itemId);
  if (!offered(item)) throw notFound(msg`Item not found.`);
  if (item.userId === borrowerId) throw forbidden(msg`You cannot reserve your own item.`);
  if (!item.isAvailable) throw conflict(msg`This item is not available right now.`, 'ITEM_UNAVAILABLE');

  const { startDate, endDate } = input;
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
  );
  const tooMuch = bookingLimitIssue(price);
  if (tooMuch) throw badRequest(tooMuch, [{ path: 'endDate', message: tooMuch }]);
  if ((await queries.findOverlapping(deps.db, item.id, startDate, endDate)).length) {
    throw conflict(msg`Those dates overlap an existing reservation.`, 'DATES_TAKEN');
  }
  return { item, price };
}

/** A reservation insert that met the one-payment-one-booking index: the payment was used meanwhile. */
function paymentUsedRace(error: unknown): boolean {
  return (
    sqlState(error) === '23505' &&
    String((error as { cause?: unknown }).cause ?? error).includes('reservations_payment_intent_unique')
  );
}

async function loadForViewer(deps: ReservationDeps, id: string, viewerId: string) {
  const row = await queries.findReservation(deps.db, id);
  if (!row) throw notFound(msg`Reservation not found.`);
  return toReservation(row, viewerId, deps, await attachedTo(deps, [row]));
}

export const reservationService = {
  async list(deps: ReservationDeps, userId: string): Promise<Reservation[]> {
    const rows = await queries.listForUser(deps.db, userId);
    const attached = await attachedTo(deps, rows);
    return rows.map((row) => toReservation(row, userId, deps, attached));
  },

  async availability(deps: ReservationDeps, itemId: string): Promise<Availability> {
    const item = await queries.findBookableItem(deps.db, itemId);
    if (!offered(item)) throw notFound(msg`Item not found.`);
    const today = campusToday(deps.timeZone).date;
    return {
      today,
      availableFrom: item.availableFrom,
      availableUntil: item.availableUntil,
      availableDays: item.availableDays,
      booked: await queries.bookedRanges(deps.db, itemId, today),
    };
  },

  /** Step 2 of the Reserve dialog: an authorisation for the server's own total (409 when the dialog's differs). */
  async createPaymentIntent(
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
      borrowerId: borrower.id,
      itemId: item.id,
      startDate: input.startDate,
      endDate: input.endDate,
      rentalCents: price.rentalCents,
      depositCents: price.depositCents,
      amountCents: price.totalCents,
    });
    return {
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.id,
      amount: centsToDecimal(price.totalCents)!,
    };
  },

  async create(
    deps: ReservationDeps,
    borrower: { id: string; fullName: string; email: string; isVerified: boolean },
    input: { itemId: string; startDate: string; endDate: string; stripePaymentIntentId?: string | null },
  ): Promise<Reservation> {
    emailVerificationService.requireVerified(borrower);
    const { item, price } = await checkBooking(deps, borrower.id, input);
    const intentId = price.totalCents > 0 ? (input.stripePaymentIntentId ?? null) : null;
    let card: { type: string; last4: string | null } | null = null;
    if (price.totalCents > 0) {
      // The money must already be authorised, for exactly this booking, and not used before.
      if (!intentId) throw new AppError(402, 'PAYMENT_REQUIRED', msg`Please pay to send this request.`);
      const intent = await deps.payments.retrievePaymentIntent(intentId).catch(() => null);
      if (!intent || intent.metadata.borrowerId !== borrower.id || intent.metadata.itemId !== item.id) {
        throw badRequest(msg`That payment does not belong to this reservation.`);
      }
      if (intent.status === 'canceled') throw paymentReleased();
      if (intent.status !== 'requires_capture')
        throw new AppError(402, 'PAYMENT_NOT_AUTHORISED', msg`The card payment has not been completed.`);
      if (intent.amountCents !== price.totalCents)
        throw conflict(msg`The payment does not match the price. Please start again.`, 'AMOUNT_MISMATCH');
      card = intent.card ? { type: intent.card.type, last4: intent.card.last4 } : null;
    }
    let id: string;
    try {
      id = await transaction(deps.db, async (tx) => {
        if (intentId) {
          // Checked again under the intent's lock: ten requests with one payment make one booking.
          const recorded = await paymentStepService.lockIntent(tx, intentId);
          if (!recorded || recorded.borrowerId !== borrower.id) {
            throw badRequest(msg`That payment does not belong to this reservation.`);
          }
          if (recorded.status === 'used') throw conflict(PAYMENT_ALREADY_USED, 'PAYMENT_ALREADY_USED');
          if (recorded.status === 'abandoned') throw paymentReleased();
          if (
            recorded.itemId !== item.id ||
            recorded.startDate !== input.startDate ||
            recorded.endDate !== input.endDate ||
            recorded.rentalCents !== price.rentalCents ||
            recorded.depositCents !== price.depositCents
          ) {
            throw conflict(
              msg`That payment was made for other dates or another amount. Please go back and pay for these dates.`,
              'PAYMENT_MISMATCH',
            );
          }
        }
        const reservationId = await queries.insertReservation(tx, {
          itemId: item.id,
          borrowerId: borrower.id,
          providerId: item.userId,
          startDate: input.startDate,
          endDate: input.endDate,
          depositCents: price.depositCents,
          rentalCents: price.rentalCents,
          stripePaymentIntentId: intentId,
          cancellationPolicy: item.cancellationPolicy,
          rentalPeriod: item.rentalPeriod,
        });
        if (intentId) await paymentStepService.markIntentUsed(tx, intentId, reservationId);
        const who = borrower.fullName;
        const title = item.title;
        await notificationService.notify(tx, {
          userId: item.userId,
          type: 'reservation_request',
          text: () => {
            const { start, end } = daysOf(input);
            return {
              title: msg`New reservation request`,
              message: msg`${who} wants to borrow ${title} from ${start} to ${end}.`,
            };
          },
          relatedReservationId: reservationId,
          relatedItemId: item.id,
        });
        await billingService.record(tx, [
          {
            kind: 'payment',
            userId: borrower.id,
            reservationId,
            stripePaymentIntentId: intentId,
            amountCents: price.totalCents,
            status: 'pending',
            description: await writtenFor(tx, borrower.id, () => {
              const { start, end } = daysOf(input);
              return msg`Payment authorised for ${title} (${start} to ${end})`;
            }),
            paymentMethodType: card?.type ?? null,
            paymentMethodLast4: card?.last4 ?? null,
          },
        ]);
        return reservationId;
      });
    } catch (error) {
      if (paymentUsedRace(error)) throw conflict(PAYMENT_ALREADY_USED, 'PAYMENT_ALREADY_USED');
      throw error;
    }
    return loadForViewer(deps, id, borrower.id);
  },

  /**
   * The 3-D Secure return (spec §4: the return address is /reservations): the bank sent the borrower
   * back after authorising, and the Reserve dialog that would have sent the request is gone. The
   * request is made from what the payment was recorded for; a second return finds it made.
   */
  async completePayment(
    deps: ReservationDeps,
    borrower: { id: string; fullName: string; email: string; isVerified: boolean },
    paymentIntentId: string,
  ): Promise<{ reservation: Reservation; created: boolean }> {
    const existing = await queries.findByPaymentIntent(deps.db, paymentIntentId);
    if (existing) {
      if (existing.borrowerId !== borrower.id) throw notFound(msg`Payment not found.`);
      return { reservation: await loadForViewer(deps, existing.id, borrower.id), created: false };
    }
    const recorded = await paymentStepService.findIntent(deps.db, paymentIntentId);
    if (recorded?.extensionOf && recorded.borrowerId === borrower.id) {
      // Issue 18 item 3: back from the bank for a request for more days; the booking itself is unchanged.
      const created = await extensionService.completePayment(deps, borrower, recorded);
      return { reservation: await loadForViewer(deps, recorded.extensionOf, borrower.id), created };
    }
    if (!recorded || recorded.borrowerId !== borrower.id || !recorded.itemId) {
      throw notFound(msg`Payment not found.`);
    }
    try {
      const reservation = await reservationService.create(deps, borrower, {
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
  },

  /** Approve (lender): charges the payment and declines the overlapping pending requests. */
  async approve(
    deps: ReservationDeps,
    lender: { id: string; email: string; isVerified: boolean },
    id: string,
  ): Promise<Reservation> {
    emailVerificationService.requireVerified(lender);
    const userId = lender.id;
    await withItemLocked(deps, id, async (tx, row) => {
      const result = transition(row.status as ReservationStatus, 'approve', roleOf(row, userId));
      if (!result.ok) throw resultError(result);
      if ((await queries.findOverlapping(tx, row.itemId, row.startDate, row.endDate)).length) {
        throw conflict(msg`Those dates overlap an existing reservation.`, 'DATES_TAKEN');
      }
      await queries.setStatus(tx, id, 'approved', { pickupCode: newPickupCode(), pickupCodeAttempts: 0 });
      await notificationService.actedOn(tx, userId, id, ['reservation_request', 'request_expiring']);
      const view = (await queries.findReservation(tx, id))!;
      const title = view.item.title;
      const borrower = view.borrower.fullName;
      await notificationService.notify(tx, {
        userId: row.borrowerId,
        type: 'reservation_approved',
        text: () => approvedText(row, view),
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
      if (row.stripePaymentIntentId) {
        // Rows wait as pending until the capture step has charged the card (decision 012).
        await billingService.settle(
          tx,
          {
            reservationId: id,
            userId: row.borrowerId,
            fromStatus: 'pending',
            stripePaymentIntentId: row.stripePaymentIntentId,
          },
          {
            description: await writtenFor(tx, row.borrowerId, () => {
              const { start, end } = daysOf(row);
              return msg`Payment for ${title} (${start} to ${end})`;
            }),
          },
        );
        await billingService.record(tx, [
          {
            kind: 'earning',
            userId: row.providerId,
            reservationId: id,
            stripePaymentIntentId: row.stripePaymentIntentId,
            amountCents: row.rentalCents,
            status: 'pending',
            description: await writtenFor(
              tx,
              row.providerId,
              () => msg`Earning: ${title} lent to ${borrower}`,
            ),
          },
        ]);
        await paymentStepService.enqueue(tx, deps.jobs, {
          paymentIntentId: row.stripePaymentIntentId,
          reservationId: id,
          kind: 'capture',
          purpose: 'approval',
          amountCents: row.depositCents + row.rentalCents,
        });
      }
      for (const other of await queries.findOverlappingPending(
        tx,
        row.itemId,
        row.startDate,
        row.endDate,
        id,
      )) {
        await queries.setStatus(tx, other.id, 'declined', {
          declineReason: await writtenFor(tx, other.borrowerId, () => BOOKED_FOR_OVERLAPPING_DATES),
        });
        await notificationService.notify(tx, {
          userId: other.borrowerId,
          type: 'reservation_declined',
          text: () => overlapDeclinedText(title, other),
          relatedReservationId: other.id,
          relatedItemId: row.itemId,
        });
        await release(tx, deps, other, 'overlap');
      }
      // Issue 18 item 3: requests for more days on other bookings that wanted these days lose too.
      await extensionService.bookingApproved(tx, deps, row);
    });
    return loadForViewer(deps, id, userId);
  },

  async decline(deps: ReservationDeps, userId: string, id: string, reason?: string): Promise<Reservation> {
    await changeStatus(deps, userId, id, 'decline', async (tx, row, view) => {
      await queries.setStatus(tx, id, 'declined', { declineReason: reason?.trim() || null });
      await notificationService.actedOn(tx, userId, id, ['reservation_request', 'request_expiring']);
      const lender = view.provider.fullName;
      const item = view.item.title;
      const why = reason?.trim();
      const paid = Boolean(row.stripePaymentIntentId);
      await notificationService.notify(tx, {
        userId: row.borrowerId,
        type: 'reservation_declined',
        text: () => {
          const { start, end } = daysOf(row);
          const title = msg`Reservation declined`;
          if (why) {
            return {
              title,
              message: paid
                ? msg`${lender} declined your request for ${item} (${start} to ${end}). Reason: ${why} Your payment was released.`
                : msg`${lender} declined your request for ${item} (${start} to ${end}). Reason: ${why}`,
            };
          }
          return {
            title,
            message: paid
              ? msg`${lender} declined your request for ${item} (${start} to ${end}). Your payment was released.`
              : msg`${lender} declined your request for ${item} (${start} to ${end}).`,
          };
        },
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
      await release(tx, deps, row, 'decline');
    });
    return loadForViewer(deps, id, userId);
  },

  /** PUT {status}: cancel, 'Picked Up' / 'Item Collected', 'Return Item' / 'Item Returned'. */
  async updateStatus(
    deps: ReservationDeps,
    userId: string,
    id: string,
    input: {
      status: 'active' | 'returned' | 'completed' | 'cancelled';
      pickupCode?: string;
      earlyRefund?: string;
    },
  ): Promise<Reservation> {
    const action = ACTION_FOR_STATUS[input.status];
    await changeStatus(deps, userId, id, action, async (tx, row, view) => {
      const role = roleOf(row, userId);
      const other = role === 'borrower' ? row.providerId : row.borrowerId;
      const actor = role === 'borrower' ? view.borrower.fullName : view.provider.fullName;
      if (action === 'start') {
        // The lender types the code the borrower shows, so the item goes to the right person.
        if (role === 'provider' && input.pickupCode !== row.pickupCode) {
          return wrongPickupCode(tx, row, view);
        }
        // Pickup photos may follow for a while (decision 033): counted from here.
        await queries.setStatus(tx, id, 'active', { pickedUpAt: nowOf(deps) });
        const item = view.item.title;
        await notificationService.notify(tx, {
          userId: other,
          type: 'reservation_started',
          text: () => {
            const due = formatDayLabel(row.endDate);
            return {
              title: role === 'borrower' ? msg`Item picked up` : msg`Item collected`,
              message: msg`${actor} marked ${item} as handed over. It is due back on ${due}.`,
            };
          },
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
      } else if (action === 'return') {
        // Issue 17 item 2: the borrower's word starts the lender's window; the deposit waits for it.
        const at = nowOf(deps);
        await queries.setStatus(tx, id, 'returned', { returnedAt: at });
        // Issue 18 item 3: a request for more days still waiting ends with the borrow.
        await extensionService.bookingEnded(tx, deps, id, 'completed');
        // Before its last day: the days after today are free at once, and whoever waits for them hears.
        if (await endEarly(tx, deps, row, view, input.earlyRefund)) {
          await waitlistService.offerFreedDates(tx, { itemId: row.itemId, timeZone: deps.timeZone });
        }
        const borrower = view.borrower.fullName;
        const lender = view.provider.fullName;
        const item = view.item.title;
        await notificationService.notify(tx, {
          userId: row.providerId,
          type: 'return_confirm',
          text: () => {
            const by = campusTime(confirmBy(at), deps.timeZone);
            const deposit = dollars(row.depositCents);
            return {
              title: msg`Confirm the return`,
              message: row.depositCents
                ? msg`${borrower} says ${item} is back. Confirm it came back in good condition, or report a problem by ${by}. With no answer by then, the ${deposit} deposit goes back to them.`
                : msg`${borrower} says ${item} is back. Confirm it came back in good condition, or report a problem by ${by}.`,
            };
          },
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
        await notificationService.notify(tx, {
          userId: row.borrowerId,
          type: 'return_confirm',
          text: () => {
            const by = campusTime(confirmBy(at), deps.timeZone);
            const deposit = dollars(row.depositCents);
            return {
              title: msg`Return noted`,
              message: row.depositCents
                ? msg`${lender} has until ${by} to confirm ${item} came back in good condition. Your ${deposit} deposit comes back then at the latest, unless they report a problem.`
                : msg`${lender} has until ${by} to confirm ${item} came back in good condition.`,
            };
          },
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
      } else if (action === 'complete') {
        // The lender confirms an item that came back before its last day (and before the borrower
        // said so): an early return too. settleDeposit then tells the waitlist of the freed days.
        if (row.status === 'active') await endEarly(tx, deps, row, view, input.earlyRefund);
        await settleDeposit(tx, deps, row, view, { keptCents: 0, how: 'confirmed' });
      } else {
        const wasApproved = row.status === 'approved';
        // Issue 17: a borrower's cancellation of a paid booking refunds by the policy it was made under;
        // a lender's, or one before approval, gives everything back. The deposit always comes back.
        const byPolicy =
          wasApproved && role === 'borrower' && row.stripePaymentIntentId
            ? borrowerCancellationRefund(
                row.cancellationPolicy as CancellationPolicy,
                row,
                new Date(),
                deps.timeZone,
              )
            : null;
        const keptCents = byPolicy?.rentalKeptCents ?? 0;
        await queries.setStatus(tx, id, 'cancelled', { cancelledBy: role as 'borrower' | 'provider' });
        // Issue 18 item 3: its extensions end too (a waiting one released, an approved one given back).
        await extensionService.bookingEnded(tx, deps, id, 'cancelled');
        const item = view.item.title;
        await notificationService.notify(tx, {
          userId: other,
          type: 'reservation_cancelled',
          text: () => {
            const { start, end } = daysOf(row);
            const title = msg`Reservation cancelled`;
            if (!row.stripePaymentIntentId) {
              return {
                title,
                message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}).`,
              };
            }
            if (!wasApproved) {
              return {
                title,
                message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}). The payment was released.`,
              };
            }
            if (keptCents) {
              const policy = policyName(row.cancellationPolicy);
              const refunded = dollars(row.depositCents + row.rentalCents - keptCents);
              const kept = dollars(keptCents);
              return {
                title,
                message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}). By the item's ${policy} cancellation policy, ${refunded} is refunded and the lender keeps ${kept} of the rental.`,
              };
            }
            const total = dollars(row.depositCents + row.rentalCents);
            return {
              title,
              message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}). The full ${total} is refunded.`,
            };
          },
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
        if (!row.stripePaymentIntentId) return;
        if (!wasApproved) {
          await release(tx, deps, row, 'cancellation');
          return;
        }
        if (keptCents > 0) {
          // The lender keeps part of the rental: the capture stands (it runs first when it has not
          // yet; steps of one payment run in order), then the rest is refunded. The lender's earning
          // becomes what they keep.
          await billingService.settleKinds(
            tx,
            {
              reservationId: id,
              stripePaymentIntentId: row.stripePaymentIntentId,
              kinds: ['earning'],
              statuses: ['pending', 'completed', 'failed'],
            },
            {
              amountCents: keptCents,
              description: await writtenFor(tx, row.providerId, () => {
                const { start, end } = daysOf(row);
                const policy = policyName(row.cancellationPolicy);
                return msg`Cancellation fee: ${item} (${start} to ${end}), ${policy} policy`;
              }),
            },
          );
          await refund(tx, deps, row, {
            purpose: 'policy',
            amountCents: row.depositCents + row.rentalCents - keptCents,
            description: () => {
              const { start, end } = daysOf(row);
              const policy = policyName(row.cancellationPolicy);
              return msg`Refund for the cancelled reservation of ${item} (${start} to ${end}): ${policy} policy`;
            },
          });
          return;
        }
        // Approved: charged, or about to be. A capture that has not started is called off and the
        // authorisation released; one that ran (or is running) is refunded in full after it.
        const calledOff = await paymentStepService.supersede(tx, row.stripePaymentIntentId, 'capture');
        if (calledOff.length) {
          await billingService.discard(tx, {
            reservationId: id,
            stripePaymentIntentId: row.stripePaymentIntentId,
            kind: 'earning',
            statuses: ['pending', 'failed'],
          });
          await release(tx, deps, row, 'cancellation');
        } else {
          await refund(tx, deps, row, {
            purpose: 'cancellation',
            amountCents: row.depositCents + row.rentalCents,
            description: () => {
              const { start, end } = daysOf(row);
              return msg`Refund for the cancelled reservation of ${item} (${start} to ${end})`;
            },
          });
        }
      }
    });
    return loadForViewer(deps, id, userId);
  },

  /**
   * "Report a problem" (issue 17 items 2 and 5): within the window after the borrower's return, or once
   * the borrow has been overdue 24 hours. At most the deposit; the borrower then accepts or disputes.
   */
  async claim(
    deps: ReservationDeps,
    userId: string,
    id: string,
    input: { description: string; amount: string; photos?: string[] },
  ): Promise<Reservation> {
    const photos = input.photos ?? [];
    requireOwnPhotos(deps, photos);
    await changeStatus(deps, userId, id, 'claim', async (tx, row, view) => {
      if (!row.stripePaymentIntentId || row.depositCents <= 0) {
        throw badRequest(msg`This borrow has no deposit to claim from.`);
      }
      const cents = toCents(input.amount) ?? 0;
      if (cents <= 0 || cents > row.depositCents) {
        const deposit = dollars(row.depositCents);
        const message = msg`The amount claimed must be between $0.01 and the ${deposit} deposit.`;
        throw badRequest(message, [{ path: 'amount', message }]);
      }
      const late = claimTimeProblem(row, deps.timeZone, nowOf(deps));
      if (late) throw conflict(late, 'CLAIM_WINDOW');
      await queries.setStatus(tx, id, 'claimed', {
        claimCents: cents,
        claimDescription: input.description,
        claimPhotos: photos,
        claimedAt: nowOf(deps),
      });
      await notificationService.actedOn(tx, userId, id, ['return_confirm', 'overdue']);
      const lender = view.provider.fullName;
      const borrower = view.borrower.fullName;
      const item = view.item.title;
      const problem = input.description;
      await notificationService.notify(tx, {
        userId: row.borrowerId,
        type: 'deposit_claim',
        text: () => {
          const claimed = dollars(cents);
          const deposit = dollars(row.depositCents);
          return {
            title: msg`Deposit claim`,
            message: msg`${lender} reported a problem with ${item}: "${problem}". They claim ${claimed} of your ${deposit} deposit. Accept it or dispute it in My Reservations.`,
          };
        },
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
      await notificationService.notify(tx, {
        userId: row.providerId,
        type: 'deposit_claim',
        text: () => {
          const claimed = dollars(cents);
          return {
            title: msg`Claim sent`,
            message: msg`Your claim of ${claimed} for ${item} was sent to ${borrower}, who can accept or dispute it.`,
          };
        },
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
    });
    return loadForViewer(deps, id, userId);
  },

  /** The borrower accepts the claim: the lender keeps it, the rest of the deposit comes back. */
  async acceptClaim(deps: ReservationDeps, userId: string, id: string): Promise<Reservation> {
    await changeStatus(deps, userId, id, 'acceptClaim', async (tx, row, view) => {
      await notificationService.actedOn(tx, userId, id, ['deposit_claim']);
      await settleDeposit(tx, deps, row, view, { keptCents: row.claimCents ?? 0, how: 'accepted' });
    });
    return loadForViewer(deps, id, userId);
  },

  /** The borrower disputes the claim: it goes to the moderators' queue with both sides. */
  async dispute(
    deps: ReservationDeps,
    userId: string,
    id: string,
    input: { note: string; photos?: string[] },
  ): Promise<Reservation> {
    const { note } = input;
    const photos = input.photos ?? [];
    requireOwnPhotos(deps, photos);
    await changeStatus(deps, userId, id, 'dispute', async (tx, row, view) => {
      await queries.setStatus(tx, id, 'disputed', {
        disputeNote: note,
        disputePhotos: photos,
        disputedAt: nowOf(deps),
      });
      await notificationService.actedOn(tx, userId, id, ['deposit_claim']);
      const borrower = view.borrower.fullName;
      const item = view.item.title;
      await notificationService.notify(tx, {
        userId: row.providerId,
        type: 'deposit_claim',
        text: () => {
          const claimed = dollars(row.claimCents ?? 0);
          return {
            title: msg`Claim disputed`,
            message: msg`${borrower} disputed your ${claimed} claim for ${item}: "${note}". A moderator will decide and tell you both.`,
          };
        },
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
      await notificationService.notify(tx, {
        userId: row.borrowerId,
        type: 'deposit_claim',
        text: () => {
          const claimed = dollars(row.claimCents ?? 0);
          return {
            title: msg`Dispute sent`,
            message: msg`Your dispute of the ${claimed} claim for ${item} went to our moderators. They will decide and tell you both.`,
          };
        },
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
    });
    return loadForViewer(deps, id, userId);
  },

  /**
   * Disputed claims with both sides, oldest first (the moderators' queue), but for those the moderator
   * lent or borrowed in: the other moderators decide those.
   */
  async disputedClaims(
    deps: ReservationDeps,
    moderatorId: string,
  ): Promise<{ claims: Reservation[]; ownCases: OwnCases }> {
    const disputed = await queries.listDisputed(deps.db);
    const isParty = (row: queries.ReservationRow) =>
      row.borrowerId === moderatorId || row.providerId === moderatorId;
    const rows = disputed.filter((row) => !isParty(row));
    const attached = await attachedTo(deps, rows);
    const withheld = disputed.length - rows.length;
    return {
      claims: rows.map((row) => toReservation(row, moderatorId, deps, attached)),
      ownCases: await moderationService.ownCases(deps.db, deps.adminEmails ?? [], moderatorId, withheld),
    };
  },

  /**
   * The chat of a disputed reservation's two people, read-only, for the moderator deciding it (decision
   * 033). Only while disputed: a moderator reads no one's chat otherwise (404, as for a missing one).
   */
  async disputeChat(deps: ReservationDeps, moderatorId: string, id: string): Promise<DisputeChat> {
    const row = await queries.findReservation(deps.db, id);
    if (row?.status !== 'disputed') throw notFound(msg`Disputed claim not found.`);
    moderationService.refuseOwnCase(moderatorId, [row.borrowerId, row.providerId]);
    const { messages, hasMore } = await conversationService.messagesBetween(deps.db, {
      itemId: row.itemId,
      buyerId: row.borrowerId,
      sellerId: row.providerId,
    });
    return {
      messages: messages.map((m) => ({
        id: m.id,
        author: m.senderId === row.borrowerId ? ('borrower' as const) : ('provider' as const),
        content: m.content,
        createdAt: m.createdAt,
      })),
      hasMore,
    };
  },

  /** A moderator's decision: the lender keeps `amountAwarded` (0 to the claim), the rest comes back. */
  async resolveClaim(
    deps: ReservationDeps,
    moderatorId: string,
    id: string,
    input: { amountAwarded: string; note?: string },
  ): Promise<Reservation> {
    await changeStatus(
      deps,
      moderatorId,
      id,
      'resolve',
      async (tx, row, view) => {
        // A moderator who lent or borrowed it is a party: no one decides their own case.
        moderationService.refuseOwnCase(moderatorId, [row.borrowerId, row.providerId]);
        const cents = toCents(input.amountAwarded) ?? 0;
        const claimed = row.claimCents ?? 0;
        if (cents < 0 || cents > claimed) {
          const amount = dollars(claimed);
          const message = msg`The amount awarded must be between $0.00 and the ${amount} claimed.`;
          throw badRequest(message, [{ path: 'amountAwarded', message }]);
        }
        await settleDeposit(tx, deps, row, view, {
          keptCents: cents,
          how: 'decided',
          moderatorId,
          note: input.note?.trim() || null,
        });
      },
      'moderator',
    );
    return loadForViewer(deps, id, moderatorId);
  },

  /**
   * The window closed unanswered (issue 17 item 2): each returned reservation whose lender did not
   * answer within 48 hours is completed and its deposit refunded, exactly as a confirm would. Under the
   * same locks as a confirm, so a confirm in the same instant wins or loses whole: one refund.
   */
  async releaseUnansweredReturns(deps: ReservationDeps): Promise<number> {
    const now = nowOf(deps);
    const due = await queries.findUnansweredReturns(
      deps.db,
      new Date(now.getTime() - CLAIM_WINDOW_HOURS * 3600_000 + 1),
    );
    let count = 0;
    for (const { id } of due) {
      try {
        await changeStatus(deps, null, id, 'releaseDeposit', async (tx, row, view) => {
          if (!row.returnedAt || confirmBy(row.returnedAt).getTime() > now.getTime()) {
            return conflict(msg`The window is still open.`, 'CLAIM_WINDOW');
          }
          await settleDeposit(tx, deps, row, view, { keptCents: 0, how: 'window' });
        });
        count++;
      } catch (error) {
        // Confirmed or claimed meanwhile (409): nothing left to release.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return count;
  },

  /** Pending requests unanswered for `hours`, or whose start day has come: cancelled, money released, both told. */
  async expirePending(deps: ReservationDeps, hours: number, now = new Date()): Promise<number> {
    const today = campusToday(deps.timeZone, now).date;
    const expired = await queries.findExpiredPending(
      deps.db,
      new Date(now.getTime() - hours * 3600_000),
      today,
    );
    let count = 0;
    for (const { id } of expired) {
      if (await expire(deps, id, 'unanswered')) count++;
    }
    return count;
  },

  /**
   * The provider cancelled a payment's authorisation on its own (it lapsed, or the bank withdrew it):
   * a request still waiting for the lender cannot be paid for any more, so it ends now, rather than
   * being approved with no money behind it. Answers whether a request was ended.
   */
  async authorisationLapsed(deps: ReservationDeps, paymentIntentId: string): Promise<boolean> {
    const reservation = await queries.findByPaymentIntent(deps.db, paymentIntentId);
    return reservation ? expire(deps, reservation.id, 'authorisation') : false;
  },
};

/** Ends a pending request on the system's behalf, releasing its money and telling both. */
async function expire(
  deps: ReservationDeps,
  id: string,
  why: 'unanswered' | 'authorisation',
): Promise<boolean> {
  try {
    await changeStatus(deps, null, id, 'expire', async (tx, row, view) => {
      await queries.setStatus(tx, id, 'cancelled', {
        declineReason: await writtenFor(tx, row.borrowerId, () =>
          why === 'unanswered'
            ? msg`The request expired before the lender answered.`
            : msg`The card authorisation expired before the lender answered.`,
        ),
      });
      const item = view.item.title;
      const lender = view.provider.fullName;
      const borrower = view.borrower.fullName;
      const title = msg`Reservation request expired`;
      const texts: [string, () => NoticeText][] = [
        [
          row.borrowerId,
          () => {
            const { start, end } = daysOf(row);
            if (why === 'authorisation') {
              return {
                title,
                message: msg`Your request for ${item} (${start} to ${end}) ended because the card authorisation expired. Nothing was charged; you can request it again.`,
              };
            }
            return {
              title,
              message: row.stripePaymentIntentId
                ? msg`Your request for ${item} (${start} to ${end}) expired before ${lender} answered. Your payment was released.`
                : msg`Your request for ${item} (${start} to ${end}) expired before ${lender} answered.`,
            };
          },
        ],
        [
          row.providerId,
          () => {
            const { start, end } = daysOf(row);
            return {
              title,
              message:
                why === 'unanswered'
                  ? msg`${borrower}'s request for ${item} (${start} to ${end}) expired without an answer.`
                  : msg`${borrower}'s request for ${item} (${start} to ${end}) ended because the card authorisation expired.`,
            };
          },
        ],
      ];
      for (const [userId, text] of texts) {
        await notificationService.notify(tx, {
          userId,
          type: 'reservation_expired',
          text,
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
      }
      await release(tx, deps, row, 'expiry');
    });
    return true;
  } catch (error) {
    // Answered meanwhile (409): nothing to expire.
    if (error instanceof AppError) return false;
    throw error;
  }
}

type LockedRow = NonNullable<Awaited<ReturnType<typeof queries.lockReservation>>>;

function roleOf(row: { borrowerId: string; providerId: string }, userId: string | null): Role {
  if (userId === null) return 'system';
  if (row.borrowerId === userId) return 'borrower';
  if (row.providerId === userId) return 'provider';
  throw forbidden(msg`You are not part of this reservation.`);
}

function resultError(result: { reason: 'forbidden' | 'illegal'; issue: UserMessage }) {
  return result.reason === 'forbidden'
    ? forbidden(result.issue)
    : conflict(result.issue, 'ILLEGAL_STATUS_CHANGE');
}

const newPickupCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Runs `apply` on the reservation in one transaction that holds the item's lock, then the
 * reservation's: the one lock order of every transition (issue 12). `apply` may answer a refusal
 * that is sent after its transaction commits (a wrong pickup code still counts as a try).
 * Afterwards the payment steps the change wrote are run at once.
 */
async function withItemLocked(
  deps: ReservationDeps,
  id: string,
  /** Answers an AppError to send once the transaction has committed (anything else is ignored). */
  apply: (tx: Db, row: LockedRow) => Promise<unknown>,
): Promise<void> {
  const itemId = await queries.itemOfReservation(deps.db, id);
  if (!itemId) throw notFound(msg`Reservation not found.`);
  const refusal = await transaction(deps.db, async (tx) => {
    await queries.lockItem(tx, itemId);
    const row = await queries.lockReservation(tx, id);
    if (!row) throw notFound(msg`Reservation not found.`);
    return apply(tx, row);
  });
  if (refusal instanceof AppError) throw refusal;
}

/** Checks the transition for this user under the locks, and runs the change. */
async function changeStatus(
  deps: ReservationDeps,
  userId: string | null,
  id: string,
  action: ReservationAction,
  apply: (tx: Db, row: LockedRow, view: queries.ReservationRow) => Promise<unknown>,
  /** A moderator acts on someone else's reservation (the route checked they are one). */
  asRole?: 'moderator',
): Promise<void> {
  await withItemLocked(deps, id, async (tx, row) => {
    const role = asRole ?? roleOf(row, userId);
    const result = transition(row.status as ReservationStatus, action, role);
    if (!result.ok) throw resultError(result);
    const view = (await queries.findReservation(tx, id))!;
    const refusal = await apply(tx, row, view);
    // Issue 18 item 4: whoever waits for dates this change freed is told in its transaction, under the
    // item's lock (a cancellation or a return frees booked days; the waitlist decides what is free).
    if (FREES_DATES.has(action)) {
      await waitlistService.offerFreedDates(tx, { itemId: row.itemId, timeZone: deps.timeZone });
    }
    return refusal;
  });
}

/** Changes after which dates may be free for someone on the waitlist. */
// A return frees its days only once its deposit is settled (settleDeposit tells the waitlist then): the
// days stay booked while the lender may still report a problem (issue 17).
const FREES_DATES: ReadonlySet<ReservationAction> = new Set(['cancel', 'decline', 'expire']);

/**
 * A wrong code counts; at the limit the borrower gets a new code, so guessing a million codes five at a
 * time is not a way to take someone else's item. Answers the refusal to send after the commit.
 */
async function wrongPickupCode(tx: Db, row: LockedRow, view: queries.ReservationRow): Promise<AppError> {
  const attempts = await queries.countWrongPickupCode(tx, row.id);
  if (attempts < LIMITS.pickupCodeAttempts) {
    const left = LIMITS.pickupCodeAttempts - attempts;
    const message = msg`That pickup code is not right. Ask the borrower to show it again (${plural(left, { one: '# try', other: '# tries' })} left).`;
    return badRequest(message, [{ path: 'pickupCode', message }]);
  }
  await queries.reissuePickupCode(tx, row.id, newPickupCode());
  const item = view.item.title;
  const times = LIMITS.pickupCodeAttempts;
  await notificationService.notify(tx, {
    userId: row.borrowerId,
    type: 'system',
    text: () => ({
      title: msg`New pickup code`,
      message: msg`A wrong pickup code for ${item} was typed ${times} times, so your code was changed. Show the new one in My Reservations at the meetup.`,
    }),
    relatedReservationId: row.id,
    relatedItemId: row.itemId,
  });
  const message = msg`Too many wrong codes: the borrower has been given a new pickup code. Ask them to show it in My Reservations.`;
  return new AppError(429, 'PICKUP_CODE_REISSUED', message, [{ path: 'pickupCode', message }]);
}

/**
 * The end of a borrow (issue 17): completed, and its deposit back but for what the lender keeps (an
 * accepted claim or a moderator's award). The lender's earning grows by what they keep, the borrower's
 * refund row says what comes back, and both are told. One home for the lender's confirm, the window
 * closing, an accepted claim and a moderator's decision.
 */
async function settleDeposit(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  view: queries.ReservationRow,
  how:
    | { keptCents: 0; how: 'confirmed' | 'window' }
    | { keptCents: number; how: 'accepted' }
    | { keptCents: number; how: 'decided'; moderatorId: string; note: string | null },
) {
  const id = row.id;
  const kept = Math.min(how.keptCents, row.depositCents);
  const back = row.depositCents - kept;
  const claimed = how.how === 'accepted' || how.how === 'decided';
  await queries.setStatus(tx, id, 'completed', {
    ...(claimed ? { awardedCents: kept, resolvedAt: nowOf(deps) } : {}),
    ...(how.how === 'decided' ? { resolvedBy: how.moderatorId } : {}),
  });
  // Issue 18 item 3: a request for more days still waiting ends with the booking (the lender may
  // confirm straight from 'active').
  await extensionService.bookingEnded(tx, deps, id, 'completed');
  // Issue 18 item 4: the days are free now; whoever waits for them is told in this transaction.
  await waitlistService.offerFreedDates(tx, { itemId: row.itemId, timeZone: deps.timeZone });
  await impactService.recordCompletion(tx, id);
  // Review requests and the badges the completion earned, in this transaction (issue 6).
  await reviewService.reservationCompleted(tx, id);
  await notificationService.actedOn(tx, row.providerId, id, ['return_confirm', 'overdue']);
  const title = view.item.title;
  const borrower = view.borrower.fullName;
  const lender = view.provider.fullName;
  const paid = Boolean(row.stripePaymentIntentId) && row.depositCents > 0;
  if (paid && kept > 0) {
    await billingService.addToEarning(tx, {
      reservationId: id,
      userId: row.providerId,
      stripePaymentIntentId: row.stripePaymentIntentId!,
      addCents: kept,
      description: await writtenFor(tx, row.providerId, () => {
        const keptAmount = dollars(kept);
        return msg`Earning: ${title} lent to ${borrower}, with ${keptAmount} of the deposit for the reported problem`;
      }),
    });
  }
  if (paid && back > 0) {
    await refund(tx, deps, row, {
      purpose: kept > 0 ? 'claim' : 'deposit',
      amountCents: back,
      description: () => {
        if (kept === 0) return msg`Deposit refund for ${title}`;
        const backAmount = dollars(back);
        const deposit = dollars(row.depositCents);
        const keptAmount = dollars(kept);
        return msg`Deposit refund for ${title}: ${backAmount} of ${deposit}, ${keptAmount} kept for the reported problem`;
      },
    });
  }
  const note = how.how === 'decided' ? how.note : null;
  /** What happened, the first sentence of both notices (in the recipient's language). */
  const leadText = (): MessageDescriptor => {
    if (how.how === 'confirmed') return msg`${lender} confirmed ${title} came back in good condition.`;
    if (how.how === 'window') {
      const hours = CLAIM_WINDOW_HOURS;
      return msg`No problem was reported within ${hours} hours of the return of ${title}.`;
    }
    if (how.how === 'accepted') return msg`${borrower} accepted the claim for ${title}.`;
    const keptAmount = dollars(kept);
    const claimedAmount = dollars(row.claimCents ?? 0);
    return note
      ? msg`A moderator decided the disputed claim for ${title}: the lender keeps ${keptAmount} of the ${claimedAmount} claimed. Note: ${note}`
      : msg`A moderator decided the disputed claim for ${title}: the lender keeps ${keptAmount} of the ${claimedAmount} claimed.`;
  };
  /** Where the deposit goes, the second sentence (none when there was no deposit paid). */
  const moneyText = (): MessageDescriptor | null => {
    if (!paid) return null;
    const deposit = dollars(row.depositCents);
    if (back === 0) return msg`The lender keeps the whole ${deposit} deposit.`;
    if (kept > 0) {
      const backAmount = dollars(back);
      const keptAmount = dollars(kept);
      return msg`${backAmount} of the ${deposit} deposit goes back to the borrower's card; the lender keeps ${keptAmount}.`;
    }
    return msg`The ${deposit} deposit goes back to the borrower's card.`;
  };
  for (const userId of [row.borrowerId, row.providerId]) {
    await notificationService.notify(tx, {
      userId,
      type: 'reservation_completed',
      // The notice's sentences are whole messages; this one puts them in order and thanks.
      text: () => {
        const lead = i18n._(leadText());
        const moneyMessage = moneyText();
        const money = moneyMessage ? i18n._(moneyMessage) : null;
        return {
          title: claimed ? msg`Claim settled` : msg`Item returned`,
          message: money ? msg`${lead} ${money} Thanks for sharing!` : msg`${lead} Thanks for sharing!`,
        };
      },
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
  }
  if (paid && back > 0) {
    await notificationService.notify(tx, {
      userId: row.borrowerId,
      type: 'deposit_refunded',
      text: () => {
        const deposit = dollars(row.depositCents);
        const backAmount = dollars(back);
        return {
          title: msg`Deposit refunded`,
          message:
            kept > 0
              ? msg`${backAmount} of your ${deposit} deposit for ${title} is on its way back to your card.`
              : msg`Your ${deposit} deposit for ${title} is on its way back to your card.`,
        };
      },
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
  }
}

/** Lets go of an authorisation that was never charged (decline, cancel, expiry, an overlapping approval). */
async function release(
  tx: Db,
  deps: ReservationDeps,
  row: { id: string; stripePaymentIntentId: string | null; depositCents: number; rentalCents: number },
  purpose: 'decline' | 'cancellation' | 'expiry' | 'overlap',
) {
  if (!row.stripePaymentIntentId) return;
  await paymentStepService.enqueue(tx, deps.jobs, {
    paymentIntentId: row.stripePaymentIntentId,
    reservationId: row.id,
    kind: 'release',
    purpose,
    amountCents: row.depositCents + row.rentalCents,
  });
}

/** Gives back charged money: its own billing row (pending until the provider confirms) and its step. */
async function refund(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  what: {
    purpose: 'deposit' | 'claim' | 'cancellation' | 'policy' | 'early_return';
    amountCents: number;
    /** The refund row's description, written in the borrower's language. */
    description: () => MessageDescriptor;
    /** Another payment of the booking than its own (an extension's). */
    paymentIntentId?: string;
  },
) {
  const intentId = what.paymentIntentId ?? row.stripePaymentIntentId!;
  const [billingId] = await billingService.record(tx, [
    {
      kind: 'refund',
      userId: row.borrowerId,
      reservationId: row.id,
      stripePaymentIntentId: intentId,
      amountCents: what.amountCents,
      status: 'pending',
      description: await writtenFor(tx, row.borrowerId, what.description),
    },
  ]);
  await paymentStepService.enqueue(tx, deps.jobs, {
    paymentIntentId: intentId,
    reservationId: row.id,
    kind: 'refund',
    purpose: what.purpose,
    amountCents: what.amountCents,
    billingId: billingId ?? null,
  });
}

/**
 * Issue 18 item 3, decision 034: the item came back (the borrower's return, or the lender's confirm of
 * an active borrow) on a campus day before the booking's last. Under the item's and the reservation's
 * locks, in the status change's transaction: the booking ends on the return day (every availability
 * check reads its end date, so the days after are free at once), the rental of the full periods left
 * unused comes back by the policy, on each payment that paid for them (a refund step of the outbox, a
 * refund row for the borrower, the lender's earning smaller by it), and both are told. The status change
 * happens once, so this does too: a second press finds the booking returned and is refused.
 */
async function endEarly(
  tx: Db,
  deps: ReservationDeps,
  row: LockedRow,
  view: queries.ReservationRow,
  /** The refund the dialog showed, if it showed one: the return goes ahead only on the same amount. */
  shown?: string,
): Promise<EarlyReturnRefund | null> {
  const returnDay = campusToday(deps.timeZone, nowOf(deps)).date;
  const approved = await extensionService.approvedOf(tx, row.id);
  const payments = rentalPaymentsOf(row, approved);
  const early = earlyReturnRefund(
    {
      startDate: row.startDate,
      endDate: row.endDate,
      rentalPeriod: row.rentalPeriod as RentalPeriod | null,
      cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
      payments,
    },
    returnDay,
  );
  const refundCents = early?.refundCents ?? 0;
  if (shown !== undefined && toCents(shown) !== refundCents) {
    const today = dayWhenWritten(returnDay);
    const refundAmount = dollars(refundCents);
    const shownAmount = dollars(toCents(shown) ?? 0);
    throw conflict(
      msg`It is ${today} on campus now: returning today refunds ${refundAmount} of the rental, not ${shownAmount}. Check the amount and press again.`,
      'EARLY_REFUND_CHANGED',
    );
  }
  if (!early) return null;
  await queries.endEarly(tx, row.id, {
    endDate: early.newEndDate,
    bookedEndDate: row.endDate,
    earlyRefundCents: early.refundCents,
  });
  const title = view.item.title;
  const borrower = view.borrower.fullName;
  /** The new last day and the booked one, in the active language. */
  const daysNow = () => ({
    newEnd: formatDayLabel(early.newEndDate),
    bookedEnd: formatDayLabel(row.endDate),
  });
  const intents = [row.stripePaymentIntentId, ...approved.map((ext) => ext.paymentIntentId)];
  for (const [i, cents] of early.refunds.entries()) {
    const intentId = intents[i];
    if (!intentId || cents <= 0) continue;
    await billingService.reduceEarning(tx, {
      reservationId: row.id,
      stripePaymentIntentId: intentId,
      byCents: cents,
      description: await writtenFor(tx, row.providerId, () => {
        const { newEnd, bookedEnd } = daysNow();
        const amount = dollars(cents);
        return msg`Earning: ${title} lent to ${borrower}, returned early (${newEnd} instead of ${bookedEnd}), ${amount} of the rental refunded`;
      }),
    });
    await refund(tx, deps, row, {
      purpose: 'early_return',
      amountCents: cents,
      paymentIntentId: intentId,
      description: () => {
        const { newEnd, bookedEnd } = daysNow();
        const policy = policyName(row.cancellationPolicy);
        return msg`Rental refund for ${title}: returned early (${newEnd} instead of ${bookedEnd}), ${policy} policy`;
      },
    });
  }
  for (const userId of [row.borrowerId, row.providerId]) {
    const toBorrower = userId === row.borrowerId;
    await notificationService.notify(tx, {
      userId,
      type: 'early_return',
      text: () => {
        const { newEnd, bookedEnd } = daysNow();
        const policy = policyName(row.cancellationPolicy);
        const amount = dollars(early.refundCents);
        const heading = msg`Returned early`;
        if (early.refundCents > 0) {
          return {
            title: heading,
            message: toBorrower
              ? msg`You returned ${title} early: your booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, ${amount} of the rental for the unused days goes back to the borrower's card.`
              : msg`${borrower} returned ${title} early: the booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, ${amount} of the rental for the unused days goes back to the borrower's card.`,
          };
        }
        if (early.unusedRentalCents > 0) {
          return {
            title: heading,
            message: toBorrower
              ? msg`You returned ${title} early: your booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, the rental of the unused days is not refunded.`
              : msg`${borrower} returned ${title} early: the booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, the rental of the unused days is not refunded.`,
          };
        }
        return {
          title: heading,
          message: toBorrower
            ? msg`You returned ${title} early: your booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book.`
            : msg`${borrower} returned ${title} early: the booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book.`,
        };
      },
      relatedReservationId: row.id,
      relatedItemId: row.itemId,
    });
  }
  return early;
}
