import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import '../i18n.ts';
import type { ReservationStatus } from '../constants.ts';
import { writtenLater } from '../text.ts';

// Spec §4 reservation statuses, in one table: who may do what from which status, and where it leads.
// The one home of the rule: the server refuses by it, and the web app's cards offer a
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
  | 'expire'
  | 'unpaid';
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
  'unpaid',
] as const;

export interface TransitionRule {
  from: readonly ReservationStatus[];
  to: ReservationStatus;
  roles: readonly Role[];
  /**
   * The statuses from which a card offers this role the action, where fewer than `from`: the API still
   * allows the rest (spec §4), the card leaves out a button that would be a second word for another.
   */
  offeredOnlyFrom?: Partial<Record<Role, readonly ReservationStatus[]>>;
}

export const TRANSITIONS: Readonly<Record<ReservationAction, TransitionRule>> = {
  approve: { from: ['pending'], to: 'approved', roles: ['provider'] },
  decline: { from: ['pending'], to: 'declined', roles: ['provider'] },
  // The lender's card answers a request with Decline; a Cancel beside it would be a second word for the
  // same thing (spec §4 still lets either party cancel a pending request through the API). Once
  // approved, either may cancel the booking.
  cancel: {
    from: ['pending', 'approved'],
    to: 'cancelled',
    roles: ['borrower', 'provider'],
    offeredOnlyFrom: { provider: ['approved'] },
  },
  start: { from: ['approved'], to: 'active', roles: ['borrower', 'provider'] },
  // The borrower's "Item Returned" asks the lender to confirm; only the lender's
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
  // Decision 062: a booking far ahead whose card could not be held, not fixed by its deadline.
  unpaid: { from: ['pending', 'approved'], to: 'cancelled', roles: ['system'] },
};

/**
 * A refusal says why twice: `issue`, a descriptor the server writes in its caller's language, and
 * `message`, the same written in the active language (the page's), read only when asked for.
 */
export type TransitionResult =
  | { ok: true; to: ReservationStatus }
  | { ok: false; reason: 'forbidden' | 'illegal'; issue: MessageDescriptor; readonly message: string };

// The words of "A {status} reservation cannot be {done}.", each written in the sentence's
// language (Spanish puts them the other way round: "No se puede {done} una reserva {status}.").
const STATUS_WORDS: Record<ReservationStatus, MessageDescriptor> = {
  pending: msg({ message: 'pending', context: 'a reservation status, inside a sentence' }),
  approved: msg({ message: 'approved', context: 'a reservation status, inside a sentence' }),
  active: msg({ message: 'active', context: 'a reservation status, inside a sentence' }),
  returned: msg({ message: 'returned', context: 'a reservation status, inside a sentence' }),
  claimed: msg({ message: 'claimed', context: 'a reservation status, inside a sentence' }),
  disputed: msg({ message: 'disputed', context: 'a reservation status, inside a sentence' }),
  completed: msg({ message: 'completed', context: 'a reservation status, inside a sentence' }),
  cancelled: msg({ message: 'cancelled', context: 'a reservation status, inside a sentence' }),
  declined: msg({ message: 'declined', context: 'a reservation status, inside a sentence' }),
};

const DONE: Record<ReservationAction, MessageDescriptor> = {
  approve: msg({ message: 'approved', context: 'what cannot be done to a reservation' }),
  decline: msg({ message: 'declined', context: 'what cannot be done to a reservation' }),
  cancel: msg({ message: 'cancelled', context: 'what cannot be done to a reservation' }),
  start: msg({ message: 'started', context: 'what cannot be done to a reservation' }),
  return: msg({ message: 'marked returned', context: 'what cannot be done to a reservation' }),
  complete: msg({ message: 'confirmed returned', context: 'what cannot be done to a reservation' }),
  claim: msg({ message: 'claimed against', context: 'what cannot be done to a reservation' }),
  acceptClaim: msg({ message: 'settled', context: 'what cannot be done to a reservation' }),
  dispute: msg({ message: 'disputed', context: 'what cannot be done to a reservation' }),
  resolve: msg({ message: 'decided', context: 'what cannot be done to a reservation' }),
  releaseDeposit: msg({ message: 'released', context: 'what cannot be done to a reservation' }),
  expire: msg({ message: 'expired', context: 'what cannot be done to a reservation' }),
  unpaid: msg({ message: 'cancelled for an unpaid hold', context: 'what cannot be done to a reservation' }),
};

/** Why this party may not: in the words of who may. */
function forbiddenMessage(action: ReservationAction): MessageDescriptor {
  switch (action) {
    case 'approve':
    case 'decline':
      return msg`Only the lender can answer this request.`;
    case 'return':
      return msg`Only the borrower marks the item returned; the lender confirms it.`;
    case 'complete':
      return msg`Only the lender can confirm the item came back in good condition.`;
    case 'claim':
      return msg`Only the lender can report a problem with the item.`;
    case 'acceptClaim':
    case 'dispute':
      return msg`Only the borrower can answer the lender's claim.`;
    case 'resolve':
      return msg`Only a moderator can decide a disputed claim.`;
    default:
      return msg`You are not part of this reservation.`;
  }
}

function illegalMessage(current: ReservationStatus, action: ReservationAction): MessageDescriptor {
  const status = writtenLater(() => i18n._(STATUS_WORDS[current]));
  const done = writtenLater(() => i18n._(DONE[action]));
  return msg`A ${status} reservation cannot be ${done}.`;
}

function refusal(reason: 'forbidden' | 'illegal', issue: MessageDescriptor): TransitionResult {
  return {
    ok: false,
    reason,
    issue,
    get message() {
      return i18n._(issue);
    },
  };
}

export function transition(
  status: ReservationStatus,
  action: ReservationAction,
  role: Role,
): TransitionResult {
  const rule = TRANSITIONS[action];
  if (!rule.roles.includes(role)) return refusal('forbidden', forbiddenMessage(action));
  if (!rule.from.includes(status)) return refusal('illegal', illegalMessage(status, action));
  return { ok: true, to: rule.to };
}

/** Whether this role may take this action from this status (a card shows the button only then). */
export function can(status: ReservationStatus, action: ReservationAction, role: Role): boolean {
  return transition(status, action, role).ok;
}

/** Whether a card offers this party the action from this status (what it may do, less a second word). */
export function offers(status: ReservationStatus, action: ReservationAction, role: PartyRole): boolean {
  const offeredFrom = TRANSITIONS[action].offeredOnlyFrom?.[role];
  return can(status, action, role) && (!offeredFrom || offeredFrom.includes(status));
}

/** What a card offers this party from this status, in the table's order. */
export function actionsFor(status: ReservationStatus, role: PartyRole): ReservationAction[] {
  return RESERVATION_ACTIONS.filter((action) => offers(status, action, role));
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
