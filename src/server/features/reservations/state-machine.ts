import type { ReservationStatus } from '#shared/constants.ts';

// Spec §4 reservation statuses, in one table: who may do what from which status, and where it leads.

export type ReservationAction = 'approve' | 'decline' | 'cancel' | 'start' | 'complete' | 'expire';
export type Role = 'borrower' | 'provider' | 'system';

const TRANSITIONS: Record<
  ReservationAction,
  { from: ReservationStatus[]; to: ReservationStatus; roles: Role[] }
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

/** The PUT body's status names the action (spec §7 PUT /api/reservations/{id} {status}). */
export const ACTION_FOR_STATUS = { active: 'start', completed: 'complete', cancelled: 'cancel' } as const;
