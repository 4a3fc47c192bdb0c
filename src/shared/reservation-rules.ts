import type { ReservationStatus } from './constants.ts';

// Spec §4 reservation statuses, in one table: who may do what from which status, and where it leads.
// The one home of the rule (issue 17 item 4): the server refuses by it, and the web app's cards offer a
// button only for what it allows, so the browser never keeps a copy of its own.

export type ReservationAction =
  | 'approve'
  | 'decline'
  | 'cancel'
  | 'start'
  | 'return'
  | 'complete'
  | 'claim'
  | 'acceptClaim'
  | 'dispute'
  | 'resolve'
  | 'releaseDeposit'
  | 'expire';
export type Role = 'borrower' | 'provider' | 'moderator' | 'system';
/** The two people of a reservation: the ones who see it and press its buttons. */
export type PartyRole = Exclude<Role, 'system' | 'moderator'>;

export const RESERVATION_ACTIONS = [
  'approve',
  'decline',
  'cancel',
  'start',
  'return',
  'complete',
  'claim',
  'acceptClaim',
  'dispute',
  'resolve',
  'releaseDeposit',
  'expire',
] as const;

export const TRANSITIONS: Readonly<
  Record<
    ReservationAction,
    { from: readonly ReservationStatus[]; to: ReservationStatus; roles: readonly Role[] }
  >
> = {
  approve: { from: ['pending'], to: 'approved', roles: ['provider'] },
  decline: { from: ['pending'], to: 'declined', roles: ['provider'] },
  cancel: { from: ['pending', 'approved'], to: 'cancelled', roles: ['borrower', 'provider'] },
  start: { from: ['approved'], to: 'active', roles: ['borrower', 'provider'] },
  // Issue 17 item 2: the borrower's "Item Returned" asks the lender to confirm; only the lender's
  // "Returned in good condition" (or the window closing unanswered) gives the deposit back. The lender
  // may confirm an active borrow too: the item came back before the borrower pressed anything.
  return: { from: ['active'], to: 'returned', roles: ['borrower'] },
  complete: { from: ['active', 'returned'], to: 'completed', roles: ['provider'] },
  // "Report a problem": within the window after a return, or after 24 h overdue (item 5; the service
  // checks those times, the table only the statuses).
  claim: { from: ['returned', 'active'], to: 'claimed', roles: ['provider'] },
  acceptClaim: { from: ['claimed'], to: 'completed', roles: ['borrower'] },
  dispute: { from: ['claimed'], to: 'disputed', roles: ['borrower'] },
  resolve: { from: ['disputed'], to: 'completed', roles: ['moderator'] },
  // The lender did not answer within the window: the deposit comes back on its own.
  releaseDeposit: { from: ['returned'], to: 'completed', roles: ['system'] },
  expire: { from: ['pending'], to: 'cancelled', roles: ['system'] },
};

export type TransitionResult =
  | { ok: true; to: ReservationStatus }
  | { ok: false; reason: 'forbidden' | 'illegal'; message: string };

const DONE: Record<ReservationAction, string> = {
  approve: 'approved',
  decline: 'declined',
  cancel: 'cancelled',
  start: 'started',
  return: 'marked returned',
  complete: 'confirmed returned',
  claim: 'claimed against',
  acceptClaim: 'settled',
  dispute: 'disputed',
  resolve: 'decided',
  releaseDeposit: 'released',
  expire: 'expired',
};

/** Why this party may not: in the words of who may. */
function forbiddenMessage(action: ReservationAction): string {
  switch (action) {
    case 'approve':
    case 'decline':
      return 'Only the lender can answer this request.';
    case 'return':
      return 'Only the borrower marks the item returned; the lender confirms it.';
    case 'complete':
      return 'Only the lender can confirm the item came back in good condition.';
    case 'claim':
      return 'Only the lender can report a problem with the item.';
    case 'acceptClaim':
    case 'dispute':
      return "Only the borrower can answer the lender's claim.";
    case 'resolve':
      return 'Only a moderator can decide a disputed claim.';
    default:
      return 'You are not part of this reservation.';
  }
}

export function transition(
  status: ReservationStatus,
  action: ReservationAction,
  role: Role,
): TransitionResult {
  const rule = TRANSITIONS[action];
  if (!rule.roles.includes(role)) {
    return { ok: false, reason: 'forbidden', message: forbiddenMessage(action) };
  }
  if (!rule.from.includes(status)) {
    return { ok: false, reason: 'illegal', message: `A ${status} reservation cannot be ${DONE[action]}.` };
  }
  return { ok: true, to: rule.to };
}

/** Whether this role may take this action from this status (a card shows the button only then). */
export function can(status: ReservationStatus, action: ReservationAction, role: Role): boolean {
  return transition(status, action, role).ok;
}

/** What this party may do from this status, in the table's order. */
export function actionsFor(status: ReservationStatus, role: PartyRole): ReservationAction[] {
  return RESERVATION_ACTIONS.filter((action) => can(status, action, role));
}

/** Statuses something can still happen from: the request or booking is open. */
export const OPEN_STATUSES: readonly ReservationStatus[] = [
  ...new Set(Object.values(TRANSITIONS).flatMap((rule) => rule.from)),
];

/** The PUT body's status names the action (spec §7 PUT /api/reservations/{id} {status}). */
export const ACTION_FOR_STATUS = {
  active: 'start',
  returned: 'return',
  completed: 'complete',
  cancelled: 'cancel',
} as const;
