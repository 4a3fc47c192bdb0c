import type { ReservationStatus } from '../constants.ts';

// The booking's statuses in one place: which reservation statuses hold the item's days, and the
// extension's own small table beside the reservation one (reservation-rules.ts holds that one; it moves
// here with the rest of the booking rules). The server refuses by these tables and the web app offers a
// button only for what they allow.

/** Reservations whose days are taken: no other booking may share a day with them. */
// A returned item's days stay taken while its lender may still report a problem and until a claim is
// settled: the reservation is not over yet.
export const BOOKED_STATUSES = [
  'approved',
  'active',
  'returned',
  'claimed',
  'disputed',
] as const satisfies readonly ReservationStatus[];

/** Whether a reservation of this status holds its days. */
export function isBooked(status: string): boolean {
  return (BOOKED_STATUSES as readonly string[]).includes(status);
}

/** An extension request moves through these; only a pending one holds money and can be answered. */
export const EXTENSION_STATUSES = ['pending', 'approved', 'declined', 'cancelled', 'expired'] as const;
export type ExtensionStatus = (typeof EXTENSION_STATUSES)[number];

export type ExtensionAction = 'approve' | 'decline' | 'cancel' | 'expire' | 'declineOverlapping';
/** Who asks: the lender answers, the borrower takes the request back, the system expires or ends it. */
export type ExtensionRole = 'borrower' | 'provider' | 'system';

/**
 * The extension's table, in the shape of the reservation's: from which status an action may be taken,
 * by whom, and where it leads. Every action starts from 'pending': an answered request is final.
 */
export const EXTENSION_TRANSITIONS: Readonly<
  Record<
    ExtensionAction,
    { from: readonly ExtensionStatus[]; to: ExtensionStatus; roles: readonly ExtensionRole[] }
  >
> = {
  approve: { from: ['pending'], to: 'approved', roles: ['provider'] },
  decline: { from: ['pending'], to: 'declined', roles: ['provider'] },
  cancel: { from: ['pending'], to: 'cancelled', roles: ['borrower', 'system'] },
  expire: { from: ['pending'], to: 'expired', roles: ['system'] },
  // Another booking took the days (an approval of theirs): the request is declined for the lender.
  declineOverlapping: { from: ['pending'], to: 'declined', roles: ['system'] },
};

export type ExtensionTransitionResult =
  | { ok: true; to: ExtensionStatus }
  | { ok: false; reason: 'forbidden' | 'illegal' };

export function extensionTransition(
  status: ExtensionStatus,
  action: ExtensionAction,
  role: ExtensionRole,
): ExtensionTransitionResult {
  const rule = EXTENSION_TRANSITIONS[action];
  if (!rule.roles.includes(role)) return { ok: false, reason: 'forbidden' };
  if (!rule.from.includes(status)) return { ok: false, reason: 'illegal' };
  return { ok: true, to: rule.to };
}

/** An extension in this status holds money on its own payment: an authorisation, or a charge. */
export const EXTENSION_HOLDS_MONEY: Readonly<Record<ExtensionStatus, 'authorised' | 'charged' | null>> = {
  pending: 'authorised',
  approved: 'charged',
  declined: null,
  cancelled: null,
  expired: null,
};
