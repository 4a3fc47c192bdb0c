import { describe, expect, it } from 'vitest';
import type { CancellationPolicy } from './cancellation-policy.ts';
import {
  type ExtensionMoney,
  earningChangeCents,
  heldCents,
  type MoneyBooking,
  type MoneyEvent,
  moneyPlan,
  platformChangeCents,
  returnedCents,
} from './money-plan.ts';

// The money plan against a table of cases: the booking of tests/api/booking-money-pinned.test.ts
// ($5/day for 2 days, the $1 service fee (10 %, at least $1), a $20 deposit, $31 held) and each event
// of its life. A movement is written 'kind:intent:amount[:purpose|reason|part]' so a row of the table
// reads like the pinned billing rows and provider steps it must produce.

const TZ = 'America/Los_Angeles';
// After every policy's deadline for a start on Dec 10 (flexible's is Dec 9, 08:00 UTC).
const LATE = new Date('2026-12-09T12:00:00Z');
// Before every policy's deadline (strict's is Dec 3, 08:00 UTC).
const EARLY = new Date('2026-11-20T12:00:00Z');

const booking = (over: Partial<MoneyBooking> = {}): MoneyBooking => ({
  paymentIntentId: 'pi_b',
  rentalCents: 1000,
  serviceFeeCents: 100,
  lenderCommissionCents: 0,
  depositCents: 2000,
  startDate: '2026-12-10',
  cancellationPolicy: 'flexible',
  ...over,
});
const ext = (status: ExtensionMoney['status'], paymentIntentId: string | null = 'pi_x'): ExtensionMoney => ({
  paymentIntentId,
  rentalCents: 1000,
  serviceFeeCents: 100,
  lenderCommissionCents: 0,
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
    if (m.kind === 'platform') return `${base}:${m.part}`;
    if (m.kind === 'giveBack') return `${base}:earning ${m.earningCents}:platform ${m.platformCents}`;
    return base;
  });

describe('heldCents', () => {
  it('is the rental, the service fee and the deposit', () => {
    expect(heldCents({ rentalCents: 1000, serviceFeeCents: 100, depositCents: 2000 })).toBe(3100);
    expect(heldCents({ rentalCents: 0, serviceFeeCents: 0, depositCents: 0 })).toBe(0);
  });
});

describe('the money plan of a paid booking', () => {
  const policy = (p: CancellationPolicy) => booking({ cancellationPolicy: p });
  it.each<[string, MoneyBooking, MoneyEvent, string[]]>([
    ['request: the card is authorised, fee included', booking(), { type: 'request' }, ['hold:pi_b:3100']],
    [
      'approve: the whole hold is charged, the lender earns the rental, the platform the fee',
      booking(),
      { type: 'approve' },
      ['capture:pi_b:3100', 'earn:pi_b:1000:rental', 'platform:pi_b:100:service_fee'],
    ],
    ['decline: released', booking(), { type: 'decline' }, ['release:pi_b:3100:decline']],
    ['expiry: released', booking(), { type: 'expire' }, ['release:pi_b:3100:expiry']],
    [
      'another booking approved: released',
      booking(),
      { type: 'declineOverlapping' },
      ['release:pi_b:3100:overlap'],
    ],
    [
      'cancel before approval (borrower): released',
      booking(),
      cancel('borrower', false),
      ['release:pi_b:3100:cancellation'],
    ],
    [
      'cancel before approval (lender): released',
      booking(),
      cancel('provider', false),
      ['release:pi_b:3100:cancellation'],
    ],
    [
      'cancel after approval, borrower, flexible, late: the lender keeps the rental, the fee is kept',
      policy('flexible'),
      cancel('borrower', true),
      ['earn:pi_b:0:cancellation_fee', 'refund:pi_b:2000:policy'],
    ],
    [
      'cancel after approval, borrower, moderate, late: half the rental kept, half the fee back',
      policy('moderate'),
      cancel('borrower', true),
      ['earn:pi_b:-500:cancellation_fee', 'platform:pi_b:-50:service_fee', 'refund:pi_b:2550:policy'],
    ],
    [
      'cancel after approval, borrower, strict, late: the rental kept',
      policy('strict'),
      cancel('borrower', true),
      ['earn:pi_b:0:cancellation_fee', 'refund:pi_b:2000:policy'],
    ],
    [
      'cancel after approval, borrower, flexible, in time: all back, the fee too',
      policy('flexible'),
      cancel('borrower', true, EARLY),
      ['giveBack:pi_b:3100:earning 1000:platform 100'],
    ],
    [
      'cancel after approval, borrower, strict, in time: half the rental kept, half the fee back',
      policy('strict'),
      cancel('borrower', true, EARLY),
      ['earn:pi_b:-500:cancellation_fee', 'platform:pi_b:-50:service_fee', 'refund:pi_b:2550:policy'],
    ],
    [
      'cancel after approval by the lender: all back, the earning and the fee with it',
      policy('strict'),
      cancel('provider', true),
      ['giveBack:pi_b:3100:earning 1000:platform 100'],
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
      'early return (flexible, 4 days, back on the first): the fee back in proportion, rounded up',
      booking({ rentalCents: 2000 }),
      { type: 'earlyReturn', refunds: [1500] },
      ['earn:pi_b:-1500:early_return', 'platform:pi_b:-75:service_fee', 'refund:pi_b:1575:early_return'],
    ],
    [
      'early return with an approved extension: each payment gives back its own share',
      booking({ extensions: [ext('declined', 'pi_d'), ext('approved')] }),
      { type: 'earlyReturn', refunds: [500, 1000] },
      [
        'earn:pi_b:-500:early_return',
        'platform:pi_b:-50:service_fee',
        'refund:pi_b:550:early_return',
        'earn:pi_x:-1000:early_return',
        'platform:pi_x:-100:service_fee',
        'refund:pi_x:1100:early_return',
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
      'asked for: its own payment is authorised, with the fee on the extra rental',
      booking(),
      { type: 'extensionRequested', extension: ext('pending') },
      ['hold:pi_x:1100'],
    ],
    [
      'approved: charged, the lender earns it, the platform its fee',
      booking(),
      { type: 'extensionApproved', extension: ext('pending') },
      ['capture:pi_x:1100', 'earn:pi_x:1000:rental', 'platform:pi_x:100:service_fee'],
    ],
    [
      'declined: released',
      booking(),
      { type: 'extensionReleased', extension: ext('pending'), purpose: 'decline' },
      ['release:pi_x:1100:decline'],
    ],
    [
      'the booking cancelled: a waiting one released, an approved one given back',
      booking({ extensions: [ext('pending', 'pi_p'), ext('approved', 'pi_a')] }),
      cancel('provider', true),
      [
        'release:pi_p:1100:cancellation',
        'giveBack:pi_a:1100:earning 1000:platform 100',
        'giveBack:pi_b:3100:earning 1000:platform 100',
      ],
    ],
    [
      'the booking completed: a waiting one released, an approved one stands',
      booking({ extensions: [ext('pending', 'pi_p'), ext('approved', 'pi_a')] }),
      { type: 'depositSettled', keptCents: 0 },
      ['release:pi_p:1100:cancellation', 'refund:pi_b:2000:deposit'],
    ],
    [
      'free extension: nothing held',
      booking(),
      {
        type: 'extensionRequested',
        extension: {
          paymentIntentId: null,
          rentalCents: 0,
          serviceFeeCents: 0,
          lenderCommissionCents: 0,
          status: 'pending',
        },
      },
      [],
    ],
  ])('%s', (_name, b, event, expected) => {
    expect(words(b, event)).toEqual(expected);
  });
});

describe('a free booking moves no money', () => {
  const free = booking({ paymentIntentId: null, rentalCents: 0, serviceFeeCents: 0, depositCents: 0 });
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
    expect(returnedCents(moderate)).toBe(2550);
    expect(earningChangeCents(moderate)).toBe(-500);
    expect(platformChangeCents(moderate)).toBe(-50);
    const byLender = moneyPlan(booking(), cancel('provider', true));
    expect(returnedCents(byLender)).toBe(3100);
    expect(earningChangeCents(byLender)).toBe(-1000);
    expect(platformChangeCents(byLender)).toBe(-100);
  });
});

// Decision 055: the service fee and the commission through a booking's life, with odd cents. $10.01 of
// rental at 10 % (a $1.00 fee: the minimum) and a 7.5 % commission (75.075 cents: 75), a $20 deposit.
describe('the platform share of a booking, cent by cent', () => {
  const odd = booking({ rentalCents: 1001, serviceFeeCents: 100, lenderCommissionCents: 75 });
  it.each<[string, MoneyBooking, MoneyEvent, string[]]>([
    ['request: rental, fee and deposit held', odd, { type: 'request' }, ['hold:pi_b:3101']],
    [
      'approve: the lender earns the rental less the commission; the platform the fee and the commission',
      odd,
      { type: 'approve' },
      [
        'capture:pi_b:3101',
        'earn:pi_b:926:rental',
        'platform:pi_b:100:service_fee',
        'platform:pi_b:75:commission',
      ],
    ],
    [
      'early return of $5.01: 51 cents of the fee back (kept 49, rounded down), 38 of the commission',
      odd,
      { type: 'earlyReturn', refunds: [501] },
      [
        'earn:pi_b:-463:early_return',
        'platform:pi_b:-51:service_fee',
        'platform:pi_b:-38:commission',
        'refund:pi_b:552:early_return',
      ],
    ],
    [
      'given back whole by the lender: the fee and the commission go with it',
      odd,
      cancel('provider', true),
      ['giveBack:pi_b:3101:earning 926:platform 175'],
    ],
    [
      'a deposit kept never touches the fee or the commission',
      odd,
      { type: 'depositSettled', keptCents: 700 },
      ['earn:pi_b:700:deposit_kept', 'refund:pi_b:1300:claim'],
    ],
    [
      'a deposit refunded never touches the fee',
      odd,
      { type: 'depositSettled', keptCents: 0 },
      ['refund:pi_b:2000:deposit'],
    ],
  ])('%s', (_name, b, event, expected) => {
    expect(words(b, event)).toEqual(expected);
  });

  it('after an early return the lender has the rest of the rental less the commission kept on it', () => {
    const approve = moneyPlan(odd, { type: 'approve' });
    const back = moneyPlan(odd, { type: 'earlyReturn', refunds: [501] });
    // 500 of rental left: 37 of commission kept on it, 463 earned; 49 of the fee kept.
    expect(earningChangeCents([...approve, ...back])).toBe(500 - 37);
    expect(platformChangeCents([...approve, ...back])).toBe(49 + 37);
    // Every cent charged is accounted for: refunded, earned, the platform's, or the deposit still held.
    expect(3101 - returnedCents(back)).toBe(463 + 86 + 2000);
  });

  it('a moderate cancellation of an odd rental: the borrower gets the larger half of the fee', () => {
    const fee101 = booking({ rentalCents: 1000, serviceFeeCents: 101, cancellationPolicy: 'moderate' });
    expect(words(fee101, cancel('borrower', true))).toEqual([
      'earn:pi_b:-500:cancellation_fee',
      'platform:pi_b:-51:service_fee',
      'refund:pi_b:2551:policy',
    ]);
  });
});
