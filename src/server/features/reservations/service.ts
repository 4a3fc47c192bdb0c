import { ACTION_FOR_STATUS } from '#shared/booking/reservation-rules.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { approve, authorisationLapsed, decline, expirePending } from './answer.ts';
import { cancel } from './cancel.ts';
import {
  acceptClaim,
  claim,
  dispute,
  disputeChat,
  disputedClaims,
  releaseUnansweredReturns,
  resolveClaim,
} from './claims.ts';
import { cancelUnfixedCards, fixCard, resumeIfHeld } from './deferred-card.ts';
import type { ReservationDeps } from './deps.ts';
import { changeStatus } from './locking.ts';
import { pickUp } from './pickup.ts';
import { availability, completePayment, create, createPaymentIntent } from './request.ts';
import { confirmReturn, markReturned } from './return.ts';
import { mostAnEarlyReturnTakes } from './secured-rental.ts';
import { list, loadForViewer } from './views.ts';

// Reservations (spec §4): the booking's lifecycle, one file per transition behind this front. A request
// (request.ts) is answered (answer.ts: approve, decline, expire), may be cancelled (cancel.ts), is
// picked up (pickup.ts) and returned (return.ts, early returns too), and its deposit may be claimed
// (claims.ts) before it is settled (settle-deposit.ts). Requests for more days live in extensions/.
// Every transition takes the item's lock, then the reservation's (locking.ts); what it says to people
// is in notices.ts and deposit-notices.ts, the money it moves in money.ts.

export type { ExtensionDeps, ReservationDeps } from './deps.ts';
export { extensionService } from './extensions/service.ts';

type StatusInput = {
  status: 'active' | 'returned' | 'completed' | 'cancelled';
  pickupCode?: string;
  earlyRefund?: string;
};

export const reservationService = {
  /** Of a payment, the most an early return could still give back (a transfer's secured part, decision 056). */
  mostAnEarlyReturnTakes,
  list,
  availability,
  createPaymentIntent,
  create,
  completePayment,
  approve,
  decline,

  /** PUT {status}: cancel, 'Picked Up' (either side), 'Return Item' / 'Item Returned'. */
  async updateStatus(
    deps: ReservationDeps,
    userId: string,
    id: string,
    input: StatusInput,
  ): Promise<Reservation> {
    const action = ACTION_FOR_STATUS[input.status];
    await changeStatus(deps, userId, id, action, async (tx, row, view) => {
      if (action === 'start') return pickUp(tx, deps, userId, row, view, input.pickupCode);
      if (action === 'return') return markReturned(tx, deps, row, view, input.earlyRefund);
      if (action === 'complete') return confirmReturn(tx, deps, row, view, input.earlyRefund);
      return cancel(tx, deps, userId, row, view);
    });
    return loadForViewer(deps, id, userId);
  },

  claim,
  acceptClaim,
  dispute,
  disputedClaims,
  disputeChat,
  resolveClaim,
  releaseUnansweredReturns,
  expirePending,
  /** Decision 062: the borrower fixes a card the off-session hold failed on; the deadline job. */
  fixCard,
  resumeIfHeld,
  cancelUnfixedCards,
  authorisationLapsed,
};
