// The platform's share of a booking (decision 055), in integer cents, shared by the server and the web
// app: the borrower's service fee on the rental, and the commission taken from the lender's rental
// earning. The rates come from the server's settings (SERVICE_FEE_*, LENDER_COMMISSION_PERCENT) and are
// snapshotted on the reservation (and on an extension) when it is requested.

/** The rates in force, as the server's settings give them (the web app reads them from GET /api/config). */
export interface ServiceFeeRates {
  /** Percent of the rental the borrower pays as the service fee (e.g. 10, or 7.5). */
  serviceFeePercent: number;
  /** The smallest fee on a rental that costs something, in cents. */
  serviceFeeMinCents: number;
  /** The largest fee, in cents. */
  serviceFeeMaxCents: number;
  /** Percent of the rental taken from the lender's earning (0: none). */
  lenderCommissionPercent: number;
}

/** What a booking's (or an extension's) platform share is: the snapshot stored with it. */
export interface PlatformShare {
  serviceFeeCents: number;
  lenderCommissionCents: number;
}

/** Percent as hundredths of a percent (basis points), so 7.5 % stays exact in integer arithmetic. */
const basisPoints = (percent: number) => Math.round(percent * 100);

/** `percent` of `cents`, rounded down to the cent. */
const percentOf = (cents: number, percent: number) => Math.floor((cents * basisPoints(percent)) / 10_000);

/**
 * The borrower's service fee on a rental: the percent of it rounded down to the cent, at least the
 * minimum and at most the maximum. No rental (a free item, or only a deposit): no fee.
 */
export function serviceFeeCents(rentalCents: number, rates: ServiceFeeRates): number {
  if (rentalCents <= 0) return 0;
  const fee = percentOf(rentalCents, rates.serviceFeePercent);
  return Math.min(rates.serviceFeeMaxCents, Math.max(rates.serviceFeeMinCents, fee));
}

/** The commission on a rental, taken from the lender's earning: the percent rounded down (lender's favour). */
export function lenderCommissionCents(rentalCents: number, rates: ServiceFeeRates): number {
  if (rentalCents <= 0) return 0;
  return percentOf(rentalCents, rates.lenderCommissionPercent);
}

/** The platform's share of a rental at these rates. */
export function platformShare(rentalCents: number, rates: ServiceFeeRates): PlatformShare {
  return {
    serviceFeeCents: serviceFeeCents(rentalCents, rates),
    lenderCommissionCents: lenderCommissionCents(rentalCents, rates),
  };
}

/**
 * What goes back of a charge (`cents`: the fee, or the commission) when `refundedCents` of
 * `rentalCents` is refunded: the same proportion, the part kept rounded down, so the part given back
 * rounds up (the borrower's favour for the fee, the lender's for the commission). All of the rental
 * back: all of it back; none: none.
 */
export function proportionBack(cents: number, refundedCents: number, rentalCents: number): number {
  if (cents <= 0 || refundedCents <= 0 || rentalCents <= 0) return 0;
  if (refundedCents >= rentalCents) return cents;
  const kept = Math.floor((cents * (rentalCents - refundedCents)) / rentalCents);
  return cents - kept;
}

/** What a lender earns of a rental: the rental less the commission. */
export const lenderEarningCents = (rentalCents: number, share: PlatformShare) =>
  Math.max(0, rentalCents - share.lenderCommissionCents);

/**
 * Rates of no platform share: for arithmetic that reads only the days and the rental of a quote (an
 * extension's extra rental, a waitlist entry's length), never for what a borrower is charged.
 */
export const NO_PLATFORM_SHARE: ServiceFeeRates = {
  serviceFeePercent: 0,
  serviceFeeMinCents: 0,
  serviceFeeMaxCents: 0,
  lenderCommissionPercent: 0,
};
