import { msg } from '@lingui/core/macro';
import { requestAnswerBy } from '#shared/booking/booking-deadlines.ts';
import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import { confirmBy, isOverdue, overdueClaimFrom } from '#shared/booking/deposit-claims.ts';
import type { RentalPayment } from '#shared/booking/early-return.ts';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { PickupMethod, RentalPeriod, ReservationStatus } from '#shared/constants.ts';
import type { Handover } from '#shared/schemas/handovers.ts';
import type { DepositClaim, Reservation } from '#shared/schemas/reservations.ts';
import { notFound } from '../../errors.ts';
import { handoverService } from '../handovers/service.ts';
import { nowOf, type ReservationDeps } from './deps.ts';
import { type ExtensionSummary, summaryFor } from './extensions/views.ts';
import * as queries from './queries.ts';

// A reservation as its viewer sees it: what the card shows of its stages, deadlines and money, with
// what other features add (its extensions and handover records).

/**
 * When a pending request expires unanswered (expirePending): its age reaches the expiry hours, or its
 * start day has passed, whichever comes first. Screens say "the lender answers by …".
 */
function respondBy(row: queries.ReservationRow, deps: ReservationDeps): string | null {
  if (row.status !== 'pending' || !deps.expiryHours) return null;
  return requestAnswerBy(row, deps.expiryHours, deps.timeZone).toISOString();
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
export interface Attached {
  extensions: Map<string, ExtensionSummary>;
  handovers: Map<string, Handover[]>;
}

export async function attachedTo(
  deps: ReservationDeps,
  rows: readonly queries.ReservationRow[],
): Promise<Attached> {
  const [extensions, handovers] = await Promise.all([
    summaryFor(
      deps.db,
      rows.map((row) => row.id),
      deps.timeZone,
    ),
    handoverService.forReservations(deps.db, rows),
  ]);
  return { extensions, handovers };
}

export function toReservation(
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
    serviceFeeAmount: centsToDecimal(row.serviceFeeCents)!,
    stripePaymentIntentId: row.stripePaymentIntentId,
    // Spec §4: the pickup code shows only while approved, and only to the borrower: the lender must
    // hear it from the borrower at the meetup, so the lender's 'Picked Up' proves they met.
    pickupCode: viewerId === row.borrowerId && row.status === 'approved' ? row.pickupCode : null,
    declineReason: row.declineReason,
    cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
    cancelledBy: row.cancelledBy as Reservation['cancelledBy'],
    createdAt: row.createdAt.toISOString(),
    respondBy: respondBy(row, deps),
    // Decision 062: a booking far ahead, its saved card held close to the start (both parties see when).
    cardHold: row.authoriseFrom
      ? {
          from: row.authoriseFrom.toISOString(),
          held: Boolean(row.authorisedAt),
          problem: (row.cardProblem as 'declined' | 'authentication_required' | null) ?? null,
          fixBy: row.cardFixBy?.toISOString() ?? null,
        }
      : null,
    overdue,
    claim: claimOf(row, deps, overdue),
    item: { ...row.item, pickupMethod: row.item.pickupMethod as PickupMethod },
    provider: row.provider,
    borrower: row.borrower,
    pendingExtension: extensions?.pending ?? null,
    extraRentalAmount: centsToDecimal(extensions?.approvedRentalCents ?? 0)!,
    extraServiceFeeAmount: centsToDecimal(extensions?.approvedServiceFeeCents ?? 0)!,
    pickedUpAt: row.pickedUpAt?.toISOString() ?? null,
    handovers: attached.handovers.get(row.id) ?? [],
    rentalPeriod: row.rentalPeriod as RentalPeriod | null,
    rentalPayments: rentalPaymentsOf(row, extensions?.approved ?? []).map((p) => ({
      fromEndDate: p.fromEndDate,
      endDate: p.endDate,
      rentalAmount: centsToDecimal(p.rentalCents)!,
      serviceFeeAmount: centsToDecimal(p.serviceFeeCents)!,
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
export function rentalPaymentsOf(
  row: { endDate: string; bookedEndDate: string | null; rentalCents: number; serviceFeeCents: number },
  approved: readonly {
    previousEndDate: string;
    newEndDate: string;
    rentalCents: number;
    serviceFeeCents: number;
  }[],
): (RentalPayment & { serviceFeeCents: number })[] {
  const ownEnd = approved.reduce(
    (end, ext) => (ext.previousEndDate < end ? ext.previousEndDate : end),
    row.bookedEndDate ?? row.endDate,
  );
  return [
    {
      fromEndDate: null,
      endDate: ownEnd,
      rentalCents: row.rentalCents,
      serviceFeeCents: row.serviceFeeCents,
    },
    ...approved.map((ext) => ({
      fromEndDate: ext.previousEndDate,
      endDate: ext.newEndDate,
      rentalCents: ext.rentalCents,
      serviceFeeCents: ext.serviceFeeCents,
    })),
  ];
}

export async function loadForViewer(deps: ReservationDeps, id: string, viewerId: string) {
  const row = await queries.findReservation(deps.db, id);
  if (!row) throw notFound(msg`Reservation not found.`);
  return toReservation(row, viewerId, deps, await attachedTo(deps, [row]));
}

/**
 * A reservation requested in the caller's transaction, for the answer to its request: nothing can be
 * attached to it yet (an extension or a handover needs it committed and approved first), so only its
 * row is read, on the transaction's connection.
 */
export async function loadRequested(deps: ReservationDeps, id: string, viewerId: string) {
  const row = await queries.findReservation(deps.db, id);
  if (!row) throw notFound(msg`Reservation not found.`);
  return toReservation(row, viewerId, deps, { extensions: new Map(), handovers: new Map() });
}

/** My Reservations: the viewer's bookings, as borrower and as lender. */
export async function list(deps: ReservationDeps, userId: string): Promise<Reservation[]> {
  const rows = await queries.listForUser(deps.db, userId);
  const attached = await attachedTo(deps, rows);
  return rows.map((row) => toReservation(row, userId, deps, attached));
}
