import { describe, expect, it } from 'vitest';
import { RESERVATION_STATUSES } from '../constants.ts';
import {
  actionsFor,
  can,
  OPEN_STATUSES,
  offers,
  RESERVATION_ACTIONS,
  type ReservationAction,
  type Role,
  transition,
} from './reservation-rules.ts';

const allowed: Record<string, string> = {
  'pending approve provider': 'approved',
  'pending decline provider': 'declined',
  'pending cancel borrower': 'cancelled',
  'pending cancel provider': 'cancelled',
  'approved cancel borrower': 'cancelled',
  'approved cancel provider': 'cancelled',
  'approved start borrower': 'active',
  'approved start provider': 'active',
  // The borrower says it is back; the lender confirms (or does so straight from active).
  'active return borrower': 'returned',
  'active complete provider': 'completed',
  'returned complete provider': 'completed',
  'returned claim provider': 'claimed',
  'active claim provider': 'claimed',
  'claimed acceptClaim borrower': 'completed',
  'claimed dispute borrower': 'disputed',
  'disputed resolve moderator': 'completed',
  'returned releaseDeposit system': 'completed',
  'pending expire system': 'cancelled',
  // Decision 062: a booking far ahead whose card was not fixed by its deadline.
  'pending unpaid system': 'cancelled',
  'approved unpaid system': 'cancelled',
};

describe('reservation state machine (spec §4)', () => {
  const actions: ReservationAction[] = [...RESERVATION_ACTIONS];
  const roles: Role[] = ['borrower', 'provider', 'moderator', 'system'];
  for (const status of RESERVATION_STATUSES) {
    for (const action of actions) {
      for (const role of roles) {
        const key = `${status} ${action} ${role}`;
        it(`${key} → ${allowed[key] ?? 'refused'}`, () => {
          const result = transition(status, action, role);
          if (allowed[key]) expect(result).toEqual({ ok: true, to: allowed[key] });
          else expect(result.ok).toBe(false);
        });
      }
    }
  }

  it('says why: the role first, then the status', () => {
    expect(transition('pending', 'approve', 'borrower')).toMatchObject({
      reason: 'forbidden',
      message: 'Only the lender can answer this request.',
    });
    expect(transition('completed', 'cancel', 'borrower')).toMatchObject({
      reason: 'illegal',
      message: 'A completed reservation cannot be cancelled.',
    });
    expect(transition('pending', 'start', 'borrower')).toMatchObject({
      message: 'A pending reservation cannot be started.',
    });
    expect(transition('active', 'complete', 'borrower')).toMatchObject({
      reason: 'forbidden',
      message: 'Only the lender can confirm the item came back in good condition.',
    });
    expect(transition('claimed', 'acceptClaim', 'provider')).toMatchObject({
      reason: 'forbidden',
      message: "Only the borrower can answer the lender's claim.",
    });
    expect(transition('claimed', 'resolve', 'moderator')).toMatchObject({
      reason: 'illegal',
      message: 'A claimed reservation cannot be decided.',
    });
  });
});

describe('the buttons a card offers come from the same table', () => {
  it("lists each party's actions per status", () => {
    // The lender's card answers a request with Decline only, though the API lets the lender cancel it.
    expect(actionsFor('pending', 'provider')).toEqual(['approve', 'decline']);
    expect(offers('pending', 'cancel', 'provider')).toBe(false);
    expect(can('pending', 'cancel', 'provider')).toBe(true);
    expect(actionsFor('pending', 'borrower')).toEqual(['cancel']);
    expect(actionsFor('approved', 'borrower')).toEqual(['cancel', 'start']);
    expect(actionsFor('active', 'provider')).toEqual(['complete', 'claim']);
    expect(actionsFor('active', 'borrower')).toEqual(['return']);
    expect(actionsFor('returned', 'provider')).toEqual(['complete', 'claim']);
    expect(actionsFor('returned', 'borrower')).toEqual([]);
    expect(actionsFor('claimed', 'borrower')).toEqual(['acceptClaim', 'dispute']);
    expect(actionsFor('disputed', 'borrower')).toEqual([]);
    expect(actionsFor('completed', 'borrower')).toEqual([]);
    expect(can('pending', 'expire', 'system')).toBe(true);
    expect(can('pending', 'expire', 'borrower')).toBe(false);
  });

  it('knows which statuses are still open', () => {
    expect([...OPEN_STATUSES].sort()).toEqual([
      'active',
      'approved',
      'claimed',
      'disputed',
      'pending',
      'returned',
    ]);
  });
});
