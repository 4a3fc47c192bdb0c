import { describe, expect, it } from 'vitest';
import type { CancellationPolicy } from './cancellation-policy.ts';
import {
  type ExtensionMoney,
  earningChangeCents,
  heldCents,
  type MoneyBooking,
  type MoneyEvent,
  moneyPlan,
  returnedCents,
} from './money-plan.ts';

// The money plan against a table of cases: the booking of tests/api/booking-money-pinned.test.ts
// ($5/day for 2 days, a $20 deposit, $30 held) and each event of its life. A movement is written
// 'kind:intent:amount[:purpose|reason]' so a row of the table reads like the pinned billing rows and
// provider steps it must produce.

const TZ = 'America/Los_Angeles';
// After every policy's deadline for a start on Dec 10 (flexible's is Dec 9, 08:00 UTC).
const LATE = new Date('2026-12-09T12:00:00Z');
// Before every policy's deadline (strict's is Dec 3, 08:00 UTC).
const EARLY = new Date('2026-11-20T12:00:00Z');

const booking = (over: Partial<MoneyBooking> = {}): MoneyBooking => ({
  paymentIntentId: 'pi_b',
  rentalCents: 1000,
  depositCents: 2000,
  startDate: '2026-12-10',
  cancellationPolicy: 'flexible',
  ...over,
});
const ext = (status: ExtensionMoney['status'], paymentIntentId: string | null = 'pi_x'): ExtensionMoney => ({
  paymentIntentId,
  rentalCents: 1000,
  status,
});
const cancel = (by: 'borrower' | 'provider', approved: boolean, at = LATE): MoneyEvent => ({
  type: 'cancel',
  by,
  approved,
  at,
  timeZone: TZ,
});

const words = (b: MoneyBooking, e: MoneyEvent) =>
  moneyPlan(b, e).map((m) => {
    const base = `${m.kind}:${m.paymentIntentId}:${m.amountCents}`;
    if (m.kind === 'release' || m.kind === 'refund') return `${base}:${m.purpose}`;
    if (m.kind === 'earn') return `${base}:${m.reason}`;
    if (m.kind === 'giveBack') return `${base}:earning ${m.earningCents}`;
    return base;
  });

describe('heldCents', () => {
  it('is the rental and the deposit', () => {
    expect(heldCents({ rentalCents: 1000, depositCents: 2000 })).toBe(3000);
    expect(heldCents({ rentalCents: 0, depositCents: 0 })).toBe(0);
  });
});

describe('the money plan of a paid booking', () => {
  const policy = (p: CancellationPolicy) => booking({ cancellationPolicy: p });
  it.each<[string, MoneyBooking, MoneyEvent, string[]]>([
    ['request: the card is authorised', booking(), { type: 'request' }, ['hold:pi_b:3000']],
    [
      'approve: the whole hold is charged, the lender earns the rental',
      booking(),
      { type: 'approve' },
      ['capture:pi_b:3000', 'earn:pi_b:1000:rental'],
    ],
    ['decline: released', booking(), { type: 'decline' }, ['release:pi_b:3000:decline']],
    ['expiry: released', booking(), { type: 'expire' }, ['release:pi_b:3000:expiry']],
    [
      'another booking approved: released',
      booking(),
      { type: 'declineOverlapping' },
      ['release:pi_b:3000:overlap'],
    ],
    [
      'cancel before approval (borrower): released',
      booking(),
      cancel('borrower', false),
      ['release:pi_b:3000:cancellation'],
    ],
    [
      'cancel before approval (lender): released',
      booking(),
      cancel('provider', false),
      ['release:pi_b:3000:cancellation'],
    ],
    [
      'cancel after approval, borrower, flexible, late: the lender keeps the rental',
      policy('flexible'),
      cancel('borrower', true),
      ['earn:pi_b:0:cancellation_fee', 'refund:pi_b:2000:policy'],
    ],
    [
      'cancel after approval, borrower, moderate, late: half the rental kept',
      policy('moderate'),
      cancel('borrower', true),
      ['earn:pi_b:-500:cancellation_fee', 'refund:pi_b:2500:policy'],
    ],
    [
      'cancel after approval, borrower, strict, late: the rental kept',
      policy('strict'),
      cancel('borrower', true),
      ['earn:pi_b:0:cancellation_fee', 'refund:pi_b:2000:policy'],
    ],
    [
      'cancel after approval, borrower, flexible, in time: all back',
      policy('flexible'),
      cancel('borrower', true, EARLY),
      ['giveBack:pi_b:3000:earning 1000'],
    ],
    [
      'cancel after approval, borrower, strict, in time: half the rental kept',
      policy('strict'),
      cancel('borrower', true, EARLY),
      ['earn:pi_b:-500:cancellation_fee', 'refund:pi_b:2500:policy'],
    ],
    [
      'cancel after approval by the lender: all back, the earning with it',
      policy('strict'),
      cancel('provider', true),
      ['giveBack:pi_b:3000:earning 1000'],
    ],
    [
      'the lender confirms the return: the deposit comes back',
      booking(),
      { type: 'depositSettled', keptCents: 0 },
      ['refund:pi_b:2000:deposit'],
    ],
    [
      'a claim settled: the lender keeps part of the deposit, the rest comes back',
      booking(),
      { type: 'depositSettled', keptCents: 800 },
      ['earn:pi_b:800:deposit_kept', 'refund:pi_b:1200:claim'],
    ],
    [
      'a claim for more than the deposit: the lender keeps the deposit, nothing comes back',
      booking(),
      { type: 'depositSettled', keptCents: 5000 },
      ['earn:pi_b:2000:deposit_kept'],
    ],
    [
      'early return (flexible, 4 days, back on the first)',
      booking({ rentalCents: 2000 }),
      { type: 'earlyReturn', refunds: [1500] },
      ['earn:pi_b:-1500:early_return', 'refund:pi_b:1500:early_return'],
    ],
    [
      'early return with an approved extension: each payment gives back its own share',
      booking({ extensions: [ext('declined', 'pi_d'), ext('approved')] }),
      { type: 'earlyReturn', refunds: [500, 1000] },
      [
        'earn:pi_b:-500:early_return',
        'refund:pi_b:500:early_return',
        'earn:pi_x:-1000:early_return',
        'refund:pi_x:1000:early_return',
      ],
    ],
    ['early return refunding nothing (strict)', booking(), { type: 'earlyReturn', refunds: [0] }, []],
  ])('%s', (_name, b, event, expected) => {
    expect(words(b, event)).toEqual(expected);
  });
});

describe('the money plan of extensions', () => {
  it.each<[string, MoneyBooking, MoneyEvent, string[]]>([
    [
      'asked for: its own payment is authorised',
      booking(),
      { type: 'extensionRequested', extension: ext('pending') },
      ['hold:pi_x:1000'],
    ],
    [
      'approved: charged, the lender earns it',
      booking(),
      { type: 'extensionApproved', extension: ext('pending') },
      ['capture:pi_x:1000', 'earn:pi_x:1000:rental'],
    ],
    [
      'declined: released',
      booking(),
      { type: 'extensionReleased', extension: ext('pending'), purpose: 'decline' },
      ['release:pi_x:1000:decline'],
    ],
    [
      'the booking cancelled: a waiting one released, an approved one given back',
      booking({ extensions: [ext('pending', 'pi_p'), ext('approved', 'pi_a')] }),
      cancel('provider', true),
      [
        'release:pi_p:1000:cancellation',
        'giveBack:pi_a:1000:earning 1000',
        'giveBack:pi_b:3000:earning 1000',
      ],
    ],
    [
      'the booking completed: a waiting one released, an approved one stands',
      booking({ extensions: [ext('pending', 'pi_p'), ext('approved', 'pi_a')] }),
      { type: 'depositSettled', keptCents: 0 },
      ['release:pi_p:1000:cancellation', 'refund:pi_b:2000:deposit'],
    ],
    [
      'free extension: nothing held',
      booking(),
      { type: 'extensionRequested', extension: { paymentIntentId: null, rentalCents: 0, status: 'pending' } },
      [],
    ],
  ])('%s', (_name, b, event, expected) => {
    expect(words(b, event)).toEqual(expected);
  });
});

describe('a free booking moves no money', () => {
  const free = booking({ paymentIntentId: null, rentalCents: 0, depositCents: 0 });
  it.each<MoneyEvent>([
    { type: 'request' },
    { type: 'approve' },
    { type: 'decline' },
    cancel('borrower', true),
    { type: 'depositSettled', keptCents: 100 },
    { type: 'earlyReturn', refunds: [100] },
  ])('$type', (event) => {
    expect(moneyPlan(free, event)).toEqual([]);
  });
});

describe('what a dialog reads off a plan', () => {
  it('the amount back on the card and the change of the lender’s earnings', () => {
    const moderate = moneyPlan(booking({ cancellationPolicy: 'moderate' }), cancel('borrower', true));
    expect(returnedCents(moderate)).toBe(2500);
    expect(earningChangeCents(moderate)).toBe(-500);
    const byLender = moneyPlan(booking(), cancel('provider', true));
    expect(returnedCents(byLender)).toBe(3000);
    expect(earningChangeCents(byLender)).toBe(-1000);
  });
});
