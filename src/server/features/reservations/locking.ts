import { randomInt } from 'node:crypto';
import { msg } from '@lingui/core/macro';
import { type ReservationAction, type Role, transition } from '#shared/booking/reservation-rules.ts';
import type { ReservationStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, conflict, forbidden, notFound, type UserMessage } from '../../errors.ts';
import { waitlistService } from '../waitlist/service.ts';
import type { ReservationDeps } from './deps.ts';
import * as queries from './queries.ts';

// Every transition locks the item first and the reservation second: one order, so no deadlock. A
// status change, its notifications, its billing rows and the provider calls it needs (as payment steps,
// decision 012) commit together; the job queue makes the calls afterwards, with retries, so a crash or
// a provider outage never loses one and a retry never moves money twice.

export type LockedRow = NonNullable<Awaited<ReturnType<typeof queries.lockReservation>>>;

export function roleOf(row: { borrowerId: string; providerId: string }, userId: string | null): Role {
  if (userId === null) return 'system';
  if (row.borrowerId === userId) return 'borrower';
  if (row.providerId === userId) return 'provider';
  throw forbidden(msg`You are not part of this reservation.`);
}

export function resultError(result: { reason: 'forbidden' | 'illegal'; issue: UserMessage }) {
  return result.reason === 'forbidden'
    ? forbidden(result.issue)
    : conflict(result.issue, 'ILLEGAL_STATUS_CHANGE');
}

/** The status table's word on this change, or its refusal thrown (403 or 409). */
export function requireTransition(status: string, action: ReservationAction, role: Role) {
  const result = transition(status as ReservationStatus, action, role);
  if (!result.ok) throw resultError(result);
  return result.to;
}

export const newPickupCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Runs `apply` on the reservation in one transaction that holds the item's lock, then the
 * reservation's: the one lock order of every transition. `apply` may answer a refusal that is sent
 * after its transaction commits (a wrong pickup code still counts as a try).
 */
export async function withItemLocked(
  deps: Pick<ReservationDeps, 'db'>,
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

/** Changes after which dates may be free for someone on the waitlist. */
// A return frees its days only once its deposit is settled (settleDeposit tells the waitlist then): the
// days stay booked while the lender may still report a problem.
const FREES_DATES: ReadonlySet<ReservationAction> = new Set(['cancel', 'decline', 'expire', 'unpaid']);

/** What a change is given under the locks: the locked row and the names and title its notices use. */
export type ChangeApply = (tx: Db, row: LockedRow, view: queries.ReservationRow) => Promise<unknown>;

/** Checks the transition for this user under the locks, and runs the change. */
export async function changeStatus(
  deps: ReservationDeps,
  userId: string | null,
  id: string,
  action: ReservationAction,
  apply: ChangeApply,
  /** A moderator acts on someone else's reservation (the route checked they are one). */
  asRole?: 'moderator',
): Promise<void> {
  await withItemLocked(deps, id, async (tx, row) => {
    requireTransition(row.status, action, asRole ?? roleOf(row, userId));
    const view = (await queries.findReservation(tx, id))!;
    const refusal = await apply(tx, row, view);
    // Whoever waits for dates this change freed is told in its transaction, under the item's lock (a
    // cancellation or a decline frees booked days; the waitlist decides what is free).
    if (FREES_DATES.has(action)) {
      await waitlistService.offerFreedDates(tx, { itemId: row.itemId, timeZone: deps.timeZone });
    }
    return refusal;
  });
}
