import type { ReservationStatus } from './constants.ts';

// Spec §4 reservation statuses, in one table: who may do what from which status, and where it leads.
// The one home of the rule (issue 17 item 4): the server refuses by it, and the web app's cards offer a
// button only for what it allows, so the browser never keeps a copy of its own.

export type ReservationAction = 'approve' | 'decline' | 'cancel' | 'start' | 'complete' | 'expire';
export type Role = 'borrower' | 'provider' | 'system';
/** The two people of a reservation: the ones who see it and press its buttons. */
export type PartyRole = Exclude<Role, 'system'>;

export const RESERVATION_ACTIONS = ['approve', 'decline', 'cancel', 'start', 'complete', 'expire'] as const;

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
  complete: { from: ['active'], to: 'completed', roles: ['borrower', 'provider'] },
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
  complete: 'completed',
  expire: 'expired',
};

export function transition(
  status: ReservationStatus,
  action: ReservationAction,
  role: Role,
): TransitionResult {
  const rule = TRANSITIONS[action];
  if (!rule.roles.includes(role)) {
    return {
      ok: false,
      reason: 'forbidden',
      message:
        action === 'approve' || action === 'decline'
          ? 'Only the lender can answer this request.'
          : 'You are not part of this reservation.',
    };
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
export const ACTION_FOR_STATUS = { active: 'start', completed: 'complete', cancelled: 'cancel' } as const;
