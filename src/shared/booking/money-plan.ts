import type { PlatformFeePart, EarningReason as StoredEarningReason } from '../constants.ts';
import { borrowerCancellationRefund, type CancellationPolicy } from './cancellation-policy.ts';
import { heldCents } from './pricing.ts';
import { type PlatformShare, proportionBack } from './service-fee.ts';
import type { ExtensionStatus } from './statuses.ts';

// What a booking's event does with money, worked out without touching any: from the booking (its
// payments, rental, deposit, policy) and the event (approve, decline, cancel, return, a claim settled,
// an extension answered) to the list of money movements. The server's ledger carries the list out
// (billing rows, provider steps); a dialog can show the same list before the button is pressed, so the
// two never differ. Pure: no clock (the event says when), no database, no words.
// Decision 044; the platform's share (service fee, commission), decision 055.

/** What a booking holds on the borrower's card (pricing.ts: the one place rental, fee and deposit add up). */
export { heldCents };

export type ReleasePurpose = 'decline' | 'cancellation' | 'expiry' | 'overlap';
export type RefundPurpose = 'deposit' | 'claim' | 'cancellation' | 'policy' | 'early_return';
/** Why a lender's earning changed: one entry of the append-only earnings history each. */
export type EarningReason = Exclude<StoredEarningReason, 'carried_over'>;
/** Which part of the platform's share changed: the borrower's service fee, or the lender's commission. */
export type PlatformPart = PlatformFeePart;

/**
 * One movement of money on one payment (a payment intent). Room is left for a transfer to the lender,
 * which would be one more kind here and one more verb of the ledger.
 */
export type MoneyMovement =
  /** The borrower's card is authorised for the amount: recorded, nothing asked of the provider yet. */
  | { kind: 'hold'; paymentIntentId: string; amountCents: number }
  /** The authorisation is charged. */
  | { kind: 'capture'; paymentIntentId: string; amountCents: number }
  /** An authorisation never charged is let go. */
  | { kind: 'release'; paymentIntentId: string; amountCents: number; purpose: ReleasePurpose }
  /** Part or all of a charged payment goes back to the card. */
  | { kind: 'refund'; paymentIntentId: string; amountCents: number; purpose: RefundPurpose }
  /**
   * An approved payment is given back whole: a capture that has not run is called off and the
   * authorisation released; one that ran is refunded in full. The lender's earning of it goes with it,
   * and the platform's share (fee and commission), when the refund is made or the charge called off.
   */
  | {
      kind: 'giveBack';
      paymentIntentId: string;
      amountCents: number;
      earningCents: number;
      platformCents: number;
    }
  /** The lender's earning on the payment grows (positive) or shrinks (negative). */
  | { kind: 'earn'; paymentIntentId: string; amountCents: number; reason: EarningReason }
  /**
   * The platform's share of the payment grows (the fee and the commission when it is charged) or
   * shrinks (the part of them given back with the rental).
   */
  | { kind: 'platform'; paymentIntentId: string; amountCents: number; part: PlatformPart };

export type MovementKind = MoneyMovement['kind'];

/**
 * An extension of the booking, as far as money goes: its own payment of its extra rental and the
 * service fee on it; the commission taken from the lender's earning of it.
 */
export interface ExtensionMoney extends PlatformShare {
  paymentIntentId: string | null;
  rentalCents: number;
  status: ExtensionStatus;
}

export interface MoneyBooking extends PlatformShare {
  /** The booking's own payment; null for a free booking (nothing is ever held). */
  paymentIntentId: string | null;
  rentalCents: number;
  depositCents: number;
  startDate: string;
  cancellationPolicy: CancellationPolicy;
  /** Its extensions (pending, approved...), each with its own payment. */
  extensions?: readonly ExtensionMoney[];
}

export type MoneyEvent =
  /** The borrower's request, with the card authorised for rental and deposit. */
  | { type: 'request' }
  | { type: 'approve' }
  /** A pending request that ends unanswered or refused: the lender's no, its expiry, another approval. */
  | { type: 'decline' | 'expire' | 'declineOverlapping' }
  /**
   * A cancellation. `approved`: the booking was approved (charged, or about to be). A borrower's
   * cancellation of an approved booking refunds by the item's policy at `at`; anyone else's gives all back.
   */
  | { type: 'cancel'; by: 'borrower' | 'provider'; approved: boolean; at: Date; timeZone: string }
  /**
   * The item came back before the last day: per payment (the booking's, then its approved extensions'
   * in the order `extensions` lists them) what comes back of the unused rental (early-return.ts).
   */
  | { type: 'earlyReturn'; refunds: readonly number[] }
  /**
   * The deposit is settled: the lender confirmed the return, the window closed (kept 0), a claim was
   * accepted or a moderator decided it (kept what they keep).
   */
  | { type: 'depositSettled'; keptCents: number }
  | { type: 'extensionRequested'; extension: ExtensionMoney }
  | { type: 'extensionApproved'; extension: ExtensionMoney }
  /** A pending extension that ends: declined, taken back, expired, or lost its days to another booking. */
  | { type: 'extensionReleased'; extension: ExtensionMoney; purpose: ReleasePurpose };

/** The lender's share of a borrower's cancellation of an approved booking (0 for anyone else's). */
export function cancellationKeptCents(booking: MoneyBooking, event: Extract<MoneyEvent, { type: 'cancel' }>) {
  if (!event.approved || event.by !== 'borrower' || !booking.paymentIntentId) return 0;
  return borrowerCancellationRefund(booking.cancellationPolicy, booking, event.at, event.timeZone)
    .rentalKeptCents;
}

/** A payment that paid rental, with the platform's share of it. */
export interface RentalPayment extends PlatformShare {
  paymentIntentId: string | null;
  rentalCents: number;
}

/** The booking's payments that paid rental: its own, then its approved extensions'. */
export function rentalPayments(booking: MoneyBooking): RentalPayment[] {
  return [
    {
      paymentIntentId: booking.paymentIntentId,
      rentalCents: booking.rentalCents,
      serviceFeeCents: booking.serviceFeeCents,
      lenderCommissionCents: booking.lenderCommissionCents,
    },
    ...(booking.extensions ?? []).filter((e) => e.status === 'approved'),
  ];
}

/** What an extension's payment holds: its extra rental and the service fee on it. */
const extensionHeld = (e: ExtensionMoney) => e.rentalCents + e.serviceFeeCents;

/** Extensions still waiting for an answer when the booking ends: their authorisations are let go. */
function pendingExtensionsReleased(booking: MoneyBooking): MoneyMovement[] {
  return (booking.extensions ?? []).flatMap((e) =>
    e.status === 'pending' && e.paymentIntentId
      ? [release(e.paymentIntentId, extensionHeld(e), 'cancellation')]
      : [],
  );
}

/** The platform's share of a payment changing by these amounts (parts that do not change are left out). */
function platform(paymentIntentId: string, feeCents: number, commissionCents: number): MoneyMovement[] {
  return [
    ...(feeCents !== 0
      ? [{ kind: 'platform', paymentIntentId, amountCents: feeCents, part: 'service_fee' } as const]
      : []),
    ...(commissionCents !== 0
      ? [{ kind: 'platform', paymentIntentId, amountCents: commissionCents, part: 'commission' } as const]
      : []),
  ];
}

/** A payment charged: the lender earns the rental less the commission, the platform its fee and commission. */
function charged(paymentIntentId: string, payment: RentalPayment): MoneyMovement[] {
  return [
    {
      kind: 'earn',
      paymentIntentId,
      amountCents: payment.rentalCents - payment.lenderCommissionCents,
      reason: 'rental',
    },
    ...platform(paymentIntentId, payment.serviceFeeCents, payment.lenderCommissionCents),
  ];
}

/** A charged payment given back whole: the lender's earning of it goes, and the platform's share. */
function givenBack(paymentIntentId: string, payment: RentalPayment, amountCents: number): MoneyMovement[] {
  return [
    {
      kind: 'giveBack',
      paymentIntentId,
      amountCents,
      earningCents: payment.rentalCents - payment.lenderCommissionCents,
      platformCents: payment.serviceFeeCents + payment.lenderCommissionCents,
    },
  ];
}

/**
 * `refundedCents` of a charged payment's rental comes back: the fee in the same proportion, rounded in
 * the borrower's favour; the lender's earning shrinks by the rental less the commission on it (the
 * commission kept rounds down). Answers the movements other than the refund, and the fee given back.
 */
function rentalGivenBack(
  paymentIntentId: string,
  payment: RentalPayment,
  refundedCents: number,
  reason: EarningReason,
): { movements: MoneyMovement[]; feeBackCents: number } {
  const feeBack = proportionBack(payment.serviceFeeCents, refundedCents, payment.rentalCents);
  const commissionBack = proportionBack(payment.lenderCommissionCents, refundedCents, payment.rentalCents);
  return {
    feeBackCents: feeBack,
    movements: [
      { kind: 'earn', paymentIntentId, amountCents: -(refundedCents - commissionBack), reason },
      ...platform(paymentIntentId, -feeBack, -commissionBack),
    ],
  };
}

const release = (paymentIntentId: string, amountCents: number, purpose: ReleasePurpose): MoneyMovement => ({
  kind: 'release',
  paymentIntentId,
  amountCents,
  purpose,
});

/** The movements of money an event of the booking makes, in the order they are carried out. */
export function moneyPlan(booking: MoneyBooking, event: MoneyEvent): MoneyMovement[] {
  const intent = booking.paymentIntentId;
  const total = heldCents(booking);
  switch (event.type) {
    case 'request':
      return intent ? [{ kind: 'hold', paymentIntentId: intent, amountCents: total }] : [];
    case 'approve':
      return intent
        ? [
            { kind: 'capture', paymentIntentId: intent, amountCents: total },
            ...charged(intent, rentalPayments(booking)[0]!),
          ]
        : [];
    case 'decline':
      return intent ? [release(intent, total, 'decline')] : [];
    case 'expire':
      return intent ? [release(intent, total, 'expiry')] : [];
    case 'declineOverlapping':
      return intent ? [release(intent, total, 'overlap')] : [];
    case 'cancel': {
      const extensions: MoneyMovement[] = [
        ...pendingExtensionsReleased(booking),
        ...(booking.extensions ?? []).flatMap((e): MoneyMovement[] =>
          e.status === 'approved' && e.paymentIntentId
            ? givenBack(e.paymentIntentId, e, extensionHeld(e))
            : [],
        ),
      ];
      if (!intent) return extensions;
      if (!event.approved) return [...extensions, release(intent, total, 'cancellation')];
      const kept = cancellationKeptCents(booking, event);
      const own = rentalPayments(booking)[0]!;
      if (kept > 0) {
        // The lender keeps part of the rental: the charge stands, the rest comes back, with the fee on it.
        const back = rentalGivenBack(intent, own, booking.rentalCents - kept, 'cancellation_fee');
        return [
          ...extensions,
          ...back.movements,
          {
            kind: 'refund',
            paymentIntentId: intent,
            amountCents: booking.depositCents + booking.rentalCents - kept + back.feeBackCents,
            purpose: 'policy',
          },
        ];
      }
      return [...extensions, ...givenBack(intent, own, total)];
    }
    case 'earlyReturn':
      return rentalPayments(booking).flatMap((payment, i): MoneyMovement[] => {
        const cents = event.refunds[i] ?? 0;
        if (!payment.paymentIntentId || cents <= 0) return [];
        const back = rentalGivenBack(payment.paymentIntentId, payment, cents, 'early_return');
        return [
          ...back.movements,
          {
            kind: 'refund',
            paymentIntentId: payment.paymentIntentId,
            amountCents: cents + back.feeBackCents,
            purpose: 'early_return',
          },
        ];
      });
    case 'depositSettled': {
      const extensions = pendingExtensionsReleased(booking);
      if (!intent || booking.depositCents <= 0) return extensions;
      const kept = Math.min(Math.max(0, event.keptCents), booking.depositCents);
      const back = booking.depositCents - kept;
      return [
        ...extensions,
        ...(kept > 0
          ? [{ kind: 'earn', paymentIntentId: intent, amountCents: kept, reason: 'deposit_kept' } as const]
          : []),
        ...(back > 0
          ? [
              {
                kind: 'refund',
                paymentIntentId: intent,
                amountCents: back,
                purpose: kept > 0 ? 'claim' : 'deposit',
              } as const,
            ]
          : []),
      ];
    }
    case 'extensionRequested': {
      const e = event.extension;
      return e.paymentIntentId && e.rentalCents > 0
        ? [{ kind: 'hold', paymentIntentId: e.paymentIntentId, amountCents: extensionHeld(e) }]
        : [];
    }
    case 'extensionApproved': {
      const e = event.extension;
      return e.paymentIntentId
        ? [
            { kind: 'capture', paymentIntentId: e.paymentIntentId, amountCents: extensionHeld(e) },
            ...charged(e.paymentIntentId, e),
          ]
        : [];
    }
    case 'extensionReleased': {
      const e = event.extension;
      return e.paymentIntentId ? [release(e.paymentIntentId, extensionHeld(e), event.purpose)] : [];
    }
  }
}

/** What the plan gives back to the borrower's card (released or refunded), in cents. */
export function returnedCents(plan: readonly MoneyMovement[]): number {
  return plan.reduce(
    (sum, m) =>
      m.kind === 'release' || m.kind === 'refund' || m.kind === 'giveBack' ? sum + m.amountCents : sum,
    0,
  );
}

/** How the plan changes the lender's earnings, in cents (a given-back payment takes its earning away). */
export function earningChangeCents(plan: readonly MoneyMovement[]): number {
  return plan.reduce(
    (sum, m) =>
      m.kind === 'earn' ? sum + m.amountCents : m.kind === 'giveBack' ? sum - m.earningCents : sum,
    0,
  );
}

/** How the plan changes the platform's share (service fee and commission), in cents. */
export function platformChangeCents(plan: readonly MoneyMovement[]): number {
  return plan.reduce(
    (sum, m) =>
      m.kind === 'platform' ? sum + m.amountCents : m.kind === 'giveBack' ? sum - m.platformCents : sum,
    0,
  );
}
