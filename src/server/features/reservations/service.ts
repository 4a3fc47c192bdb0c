import { randomInt } from 'node:crypto';
import { format } from 'date-fns';
import { campusToday } from '#shared/calendar.ts';
import type { PickupMethod, ReservationStatus } from '#shared/constants.ts';
import { centsToDecimal, quote, toCents } from '#shared/pricing.ts';
import type { Availability, Reservation } from '#shared/schemas/reservations.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { billingService } from '../billing/service.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { impactService } from '../impact/service.ts';
import { notificationService } from '../notifications/service.ts';
import { reviewService } from '../reviews/service.ts';
import * as queries from './queries.ts';
import { ACTION_FOR_STATUS, type ReservationAction, type Role, transition } from './state-machine.ts';

// Reservations (spec §4, issue 4): dates that make sense, the state machine, and the money flow.
// Database changes happen in transactions with their notifications and billing rows; the provider
// is called after the commit, with idempotency keys, so a retry never moves money twice.

export interface ReservationDeps {
  db: Db;
  payments: PaymentProvider;
  timeZone: string;
  /** Lets the rare provider failure after a commit be logged, not lost. */
  log?: { error: (obj: object, msg: string) => void };
}

const dayLabel = (date: string) => format(new Date(`${date}T12:00:00`), 'MMM d');
const range = (r: { startDate: string; endDate: string }) =>
  `${dayLabel(r.startDate)} to ${dayLabel(r.endDate)}`;

function weekday(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

function toReservation(row: queries.ReservationRow, viewerId: string): Reservation {
  const party = viewerId === row.borrowerId || viewerId === row.providerId;
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
    // Spec §4: the pickup code shows only while approved, and only to the two parties.
    pickupCode: party && row.status === 'approved' ? row.pickupCode : null,
    declineReason: row.declineReason,
    createdAt: row.createdAt.toISOString(),
    item: { ...row.item, pickupMethod: row.item.pickupMethod as PickupMethod },
    provider: row.provider,
    borrower: row.borrower,
  };
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
  const item = await queries.findBookableItem(deps.db, input.itemId);
  if (!offered(item)) throw notFound('Item not found.');
  if (item.userId === borrowerId) throw forbidden('You cannot reserve your own item.');
  if (!item.isAvailable) throw conflict('This item is not available right now.', 'ITEM_UNAVAILABLE');

  const { startDate, endDate } = input;
  const today = campusToday(deps.timeZone).date;
  const dateError = (message: string) => badRequest(message, [{ path: 'startDate', message }]);
  if (startDate < today) throw dateError('The start date cannot be in the past.');
  if (endDate < startDate)
    throw badRequest('The end date cannot be before the start date.', [
      { path: 'endDate', message: 'The end date cannot be before the start date.' },
    ]);
  if (startDate < item.availableFrom)
    throw dateError(`This item is available from ${dayLabel(item.availableFrom)}.`);
  if (item.availableUntil && endDate > item.availableUntil)
    throw dateError(`This item is available until ${dayLabel(item.availableUntil)}.`);
  if (!item.availableDays.includes(weekday(startDate)) || !item.availableDays.includes(weekday(endDate))) {
    throw dateError('Pickup and return must fall on days the lender is available.');
  }
  if ((await queries.findOverlapping(deps.db, item.id, startDate, endDate)).length) {
    throw conflict('Those dates overlap an existing reservation.', 'DATES_TAKEN');
  }
  const price = quote(
    {
      rentalPriceCents: item.rentalPriceCents,
      rentalPeriod: item.rentalPeriod as 'day' | 'week' | 'month' | null,
      depositCents: item.depositCents,
    },
    startDate,
    endDate,
  );
  return { item, price };
}

async function afterCommit(deps: ReservationDeps, what: string, run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    // The database already says what happened; the idempotent call can be retried from the log.
    deps.log?.error({ err: error }, `payment provider call failed after commit: ${what}`);
  }
}

async function loadForViewer(deps: ReservationDeps, id: string, viewerId: string) {
  const row = await queries.findReservation(deps.db, id);
  if (!row) throw notFound('Reservation not found.');
  return toReservation(row, viewerId);
}

export const reservationService = {
  async list(deps: ReservationDeps, userId: string): Promise<Reservation[]> {
    return (await queries.listForUser(deps.db, userId)).map((row) => toReservation(row, userId));
  },

  async availability(deps: ReservationDeps, itemId: string): Promise<Availability> {
    const item = await queries.findBookableItem(deps.db, itemId);
    if (!offered(item)) throw notFound('Item not found.');
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
      throw conflict(
        `The price has changed: the rental is $${centsToDecimal(price.rentalCents)} and the deposit $${centsToDecimal(price.depositCents)}. Please review and try again.`,
        'AMOUNT_MISMATCH',
      );
    }
    if (price.totalCents === 0) throw badRequest('This item is free: reserve it without a payment.');
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
    let card: { type: string; last4: string | null } | null = null;
    if (price.totalCents > 0) {
      // The money must already be authorised, for exactly this booking, and not used before.
      if (!input.stripePaymentIntentId)
        throw new AppError(402, 'PAYMENT_REQUIRED', 'Please pay to send this request.');
      const intent = await deps.payments.retrievePaymentIntent(input.stripePaymentIntentId).catch(() => null);
      if (!intent || intent.metadata.borrowerId !== borrower.id || intent.metadata.itemId !== item.id) {
        throw badRequest('That payment does not belong to this reservation.');
      }
      if (intent.status !== 'requires_capture')
        throw new AppError(402, 'PAYMENT_NOT_AUTHORISED', 'The card payment has not been completed.');
      if (intent.amountCents !== price.totalCents)
        throw conflict('The payment does not match the price. Please start again.', 'AMOUNT_MISMATCH');
      if (await queries.paymentIntentInUse(deps.db, intent.id))
        throw conflict('That payment is already used by another reservation.');
      card = intent.card ? { type: intent.card.type, last4: intent.card.last4 } : null;
    }
    const id = await deps.db.transaction(async (tx) => {
      const reservationId = await queries.insertReservation(tx, {
        itemId: item.id,
        borrowerId: borrower.id,
        providerId: item.userId,
        startDate: input.startDate,
        endDate: input.endDate,
        depositCents: price.depositCents,
        rentalCents: price.rentalCents,
        stripePaymentIntentId: price.totalCents > 0 ? (input.stripePaymentIntentId ?? null) : null,
      });
      await notificationService.notify(tx, {
        userId: item.userId,
        type: 'reservation_request',
        title: 'New reservation request',
        message: `${borrower.fullName} wants to borrow ${item.title} from ${range(input)}.`,
        relatedReservationId: reservationId,
        relatedItemId: item.id,
      });
      await billingService.record(tx, [
        {
          userId: borrower.id,
          reservationId,
          stripePaymentIntentId: input.stripePaymentIntentId ?? null,
          amountCents: price.totalCents,
          status: 'pending',
          description: `Payment authorised for ${item.title} (${range(input)})`,
          paymentMethodType: card?.type ?? null,
          paymentMethodLast4: card?.last4 ?? null,
        },
      ]);
      return reservationId;
    });
    return loadForViewer(deps, id, borrower.id);
  },

  /** Approve (lender): captures the payment and declines the overlapping pending requests. */
  async approve(
    deps: ReservationDeps,
    lender: { id: string; email: string; isVerified: boolean },
    id: string,
  ): Promise<Reservation> {
    emailVerificationService.requireVerified(lender);
    const userId = lender.id;
    const released: { reservationId: string; intentId: string }[] = [];
    let captured: string | null = null;
    await deps.db.transaction(async (tx) => {
      // Item first, then reservations, in every approval: the same order everywhere cannot deadlock.
      const current = await queries.findReservation(tx, id);
      if (!current) throw notFound('Reservation not found.');
      await queries.lockItem(tx, current.itemId);
      const row = (await queries.lockReservation(tx, id))!;
      const result = transition(row.status as ReservationStatus, 'approve', roleOf(row, userId));
      if (!result.ok) throw resultError(result);
      if ((await queries.findOverlapping(tx, row.itemId, row.startDate, row.endDate)).length) {
        throw conflict('Those dates overlap an existing reservation.', 'DATES_TAKEN');
      }
      await queries.setStatus(tx, id, 'approved', {
        pickupCode: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      });
      const view = (await queries.findReservation(tx, id))!;
      await notificationService.notify(tx, {
        userId: row.borrowerId,
        type: 'reservation_approved',
        title: 'Reservation approved',
        message: `${view.provider.fullName} approved your request for ${view.item.title} (${range(row)}). Your pickup code is in My Reservations.`,
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
      if (row.stripePaymentIntentId) {
        captured = row.stripePaymentIntentId;
        await billingService.settle(
          tx,
          { reservationId: id, userId: row.borrowerId, fromStatus: 'pending' },
          {
            status: 'completed',
            description: `Payment for ${view.item.title} (${range(row)})`,
          },
        );
        await billingService.record(tx, [
          {
            userId: row.providerId,
            reservationId: id,
            stripePaymentIntentId: row.stripePaymentIntentId,
            amountCents: row.rentalCents,
            status: 'completed',
            description: `Earning: ${view.item.title} lent to ${view.borrower.fullName}`,
          },
        ]);
      }
      for (const other of await queries.findOverlappingPending(
        tx,
        row.itemId,
        row.startDate,
        row.endDate,
        id,
      )) {
        await queries.setStatus(tx, other.id, 'declined', {
          declineReason: 'The item was booked for overlapping dates.',
        });
        await notificationService.notify(tx, {
          userId: other.borrowerId,
          type: 'reservation_declined',
          title: 'Reservation declined',
          message: `Your request for ${view.item.title} (${range(other)}) was declined: the item was booked for overlapping dates.${other.stripePaymentIntentId ? ' Your payment was released.' : ''}`,
          relatedReservationId: other.id,
          relatedItemId: row.itemId,
        });
        if (other.stripePaymentIntentId) {
          released.push({ reservationId: other.id, intentId: other.stripePaymentIntentId });
          await releaseBilling(tx, other.id, other.borrowerId, other.depositCents + other.rentalCents);
        }
      }
    });
    if (captured) {
      const intentId: string = captured;
      await afterCommit(deps, `capture ${intentId}`, () =>
        deps.payments.capturePaymentIntent(intentId, `capture-${id}`),
      );
    }
    for (const r of released) await releasePayment(deps, r.reservationId, r.intentId);
    return loadForViewer(deps, id, userId);
  },

  async decline(deps: ReservationDeps, userId: string, id: string, reason?: string): Promise<Reservation> {
    const row = await changeStatus(deps, userId, id, 'decline', async (tx, row, view) => {
      await queries.setStatus(tx, id, 'declined', { declineReason: reason?.trim() || null });
      await notificationService.notify(tx, {
        userId: row.borrowerId,
        type: 'reservation_declined',
        title: 'Reservation declined',
        message: `${view.provider.fullName} declined your request for ${view.item.title} (${range(row)}).${reason?.trim() ? ` Reason: ${reason.trim()}` : ''}${row.stripePaymentIntentId ? ' Your payment was released.' : ''}`,
        relatedReservationId: id,
        relatedItemId: row.itemId,
      });
      if (row.stripePaymentIntentId)
        await releaseBilling(tx, id, row.borrowerId, row.depositCents + row.rentalCents);
    });
    await releasePayment(deps, id, row.stripePaymentIntentId);
    return loadForViewer(deps, id, userId);
  },

  /** PUT {status}: cancel, 'Picked Up' / 'Item Collected', 'Return Item' / 'Item Returned'. */
  async updateStatus(
    deps: ReservationDeps,
    userId: string,
    id: string,
    input: { status: 'active' | 'completed' | 'cancelled'; pickupCode?: string },
  ): Promise<Reservation> {
    const action = ACTION_FOR_STATUS[input.status];
    let wasApproved = false;
    const row = await changeStatus(deps, userId, id, action, async (tx, row, view) => {
      const role = roleOf(row, userId);
      const other = role === 'borrower' ? row.providerId : row.borrowerId;
      const actor = role === 'borrower' ? view.borrower.fullName : view.provider.fullName;
      if (action === 'start') {
        // The lender types the code the borrower shows, so the item goes to the right person.
        if (role === 'provider' && input.pickupCode !== row.pickupCode) {
          throw badRequest('That pickup code is not right. Ask the borrower to show it again.', [
            {
              path: 'pickupCode',
              message: 'That pickup code is not right. Ask the borrower to show it again.',
            },
          ]);
        }
        await queries.setStatus(tx, id, 'active');
        await notificationService.notify(tx, {
          userId: other,
          type: 'reservation_started',
          title: role === 'borrower' ? 'Item picked up' : 'Item collected',
          message: `${actor} marked ${view.item.title} as handed over. It is due back on ${dayLabel(row.endDate)}.`,
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
      } else if (action === 'complete') {
        await queries.setStatus(tx, id, 'completed');
        await impactService.recordCompletion(tx, id);
        // Review requests and the badges the completion earned, in this transaction (issue 6).
        await reviewService.reservationCompleted(tx, id);
        await notificationService.notify(tx, {
          userId: other,
          type: 'reservation_completed',
          title: 'Item returned',
          message: `${actor} marked ${view.item.title} as returned. Thanks for sharing!`,
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
        if (row.stripePaymentIntentId && row.depositCents > 0) {
          await billingService.record(tx, [
            {
              userId: row.borrowerId,
              reservationId: id,
              stripePaymentIntentId: row.stripePaymentIntentId,
              amountCents: row.depositCents,
              status: 'refunded',
              description: `Deposit refund for ${view.item.title}`,
              refundAmountCents: row.depositCents,
              refundedAt: new Date(),
            },
          ]);
          await notificationService.notify(tx, {
            userId: row.borrowerId,
            type: 'deposit_refunded',
            title: 'Deposit refunded',
            message: `Your $${centsToDecimal(row.depositCents)} deposit for ${view.item.title} is on its way back to your card.`,
            relatedReservationId: id,
            relatedItemId: row.itemId,
          });
        }
      } else {
        wasApproved = row.status === 'approved';
        await queries.setStatus(tx, id, 'cancelled');
        await notificationService.notify(tx, {
          userId: other,
          type: 'reservation_cancelled',
          title: 'Reservation cancelled',
          message: `${actor} cancelled the reservation of ${view.item.title} (${range(row)}).`,
          relatedReservationId: id,
          relatedItemId: row.itemId,
        });
        if (row.stripePaymentIntentId) {
          const total = row.depositCents + row.rentalCents;
          if (wasApproved) {
            // Captured on approval: the whole amount goes back, and the lender's earning with it.
            await billingService.settle(
              tx,
              { reservationId: id, userId: row.borrowerId, fromStatus: 'completed' },
              {
                status: 'refunded',
                refundAmountCents: total,
                refundedAt: new Date(),
              },
            );
            await billingService.settle(
              tx,
              { reservationId: id, userId: row.providerId, fromStatus: 'completed' },
              {
                status: 'refunded',
                refundAmountCents: row.rentalCents,
                refundedAt: new Date(),
              },
            );
          } else {
            await releaseBilling(tx, id, row.borrowerId, total);
          }
        }
      }
    });
    const intentId = row.stripePaymentIntentId;
    if (intentId) {
      if (action === 'complete' && row.depositCents > 0) {
        await afterCommit(deps, `deposit refund ${intentId}`, () =>
          deps.payments.refund(intentId, row.depositCents, `deposit-${id}`),
        );
      } else if (action === 'cancel' && wasApproved) {
        await afterCommit(deps, `refund ${intentId}`, () =>
          deps.payments.refund(intentId, row.depositCents + row.rentalCents, `cancel-refund-${id}`),
        );
      } else if (action === 'cancel') {
        await releasePayment(deps, id, intentId);
      }
    }
    return loadForViewer(deps, id, userId);
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
      try {
        const row = await changeStatus(deps, null, id, 'expire', async (tx, row, view) => {
          await queries.setStatus(tx, id, 'cancelled', {
            declineReason: 'The request expired before the lender answered.',
          });
          for (const [userId, message] of [
            [
              row.borrowerId,
              `Your request for ${view.item.title} (${range(row)}) expired before ${view.provider.fullName} answered.${row.stripePaymentIntentId ? ' Your payment was released.' : ''}`,
            ],
            [
              row.providerId,
              `${view.borrower.fullName}'s request for ${view.item.title} (${range(row)}) expired without an answer.`,
            ],
          ] as const) {
            await notificationService.notify(tx, {
              userId,
              type: 'reservation_expired',
              title: 'Reservation request expired',
              message,
              relatedReservationId: id,
              relatedItemId: row.itemId,
            });
          }
          if (row.stripePaymentIntentId)
            await releaseBilling(tx, id, row.borrowerId, row.depositCents + row.rentalCents);
        });
        await releasePayment(deps, id, row.stripePaymentIntentId);
        count++;
      } catch (error) {
        // Answered meanwhile (409): nothing to expire.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return count;
  },
};

type LockedRow = NonNullable<Awaited<ReturnType<typeof queries.lockReservation>>>;

function roleOf(row: { borrowerId: string; providerId: string }, userId: string | null): Role {
  if (userId === null) return 'system';
  if (row.borrowerId === userId) return 'borrower';
  if (row.providerId === userId) return 'provider';
  throw forbidden('You are not part of this reservation.');
}

function resultError(result: { reason: 'forbidden' | 'illegal'; message: string }) {
  return result.reason === 'forbidden'
    ? forbidden(result.message)
    : conflict(result.message, 'ILLEGAL_STATUS_CHANGE');
}

/** Locks the reservation, checks the transition for this user, and runs the change in one transaction. */
async function changeStatus(
  deps: ReservationDeps,
  userId: string | null,
  id: string,
  action: ReservationAction,
  apply: (tx: Db, row: LockedRow, view: queries.ReservationRow) => Promise<void>,
): Promise<LockedRow> {
  return deps.db.transaction(async (tx) => {
    const row = await queries.lockReservation(tx, id);
    if (!row) throw notFound('Reservation not found.');
    const result = transition(row.status as ReservationStatus, action, roleOf(row, userId));
    if (!result.ok) throw resultError(result);
    const view = (await queries.findReservation(tx, id))!;
    await apply(tx, row, view);
    return row;
  });
}

/** After the commit: lets go of an authorisation that was never captured (decline, cancel, expiry). */
async function releasePayment(deps: ReservationDeps, reservationId: string, intentId: string | null) {
  if (!intentId) return;
  await afterCommit(deps, `release ${intentId}`, () =>
    deps.payments.cancelPaymentIntent(intentId, `release-${reservationId}`),
  );
}

/** An authorisation that is never captured: the borrower's row shows the money released. */
async function releaseBilling(tx: Db, reservationId: string, borrowerId: string, totalCents: number) {
  await billingService.settle(
    tx,
    { reservationId, userId: borrowerId, fromStatus: 'pending' },
    {
      status: 'refunded',
      refundAmountCents: totalCents,
      refundedAt: new Date(),
    },
  );
}
