import { centsToDecimal } from '#shared/booking/pricing.ts';
import { JOURNAL_PROBLEMS, type JournalProblem } from '#shared/constants.ts';
import type { JournalFindings, LenderTotals } from '#shared/schemas/ledger.ts';
import type { Db } from '../../db/client.ts';
import * as queries from './journal-queries.ts';

// What moderators see of the journal (decision 058): the bookings its reconciliation found wrong, and
// each lender's totals for a calendar year against the US 1099-K thresholds. The routes are the
// moderators' group only (route-scopes.ts).

/** Cents as a decimal string, below zero too. */
const decimal = (cents: number) => `${cents < 0 ? '-' : ''}${centsToDecimal(Math.abs(cents))}`;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

const isProblem = (value: string): value is JournalProblem =>
  (JOURNAL_PROBLEMS as readonly string[]).includes(value);

export const booksForModerators = {
  async findings(db: Db): Promise<JournalFindings> {
    const rows = await queries.openFindings(db, 200);
    return {
      findings: rows
        .filter((r) => isProblem(r.problem))
        .map((r) => ({
          id: r.id,
          reservationId: r.reservationId,
          itemTitle: r.itemTitle,
          problem: r.problem as JournalProblem,
          cash: decimal(Number(r.cashCents)),
          accounted: decimal(Number(r.accountedCents)),
          detectedAt: iso(r.detectedAt),
        })),
    };
  },

  /**
   * Per lender, for a calendar year (the current one when none is asked for): paid to them and in how
   * many payments, flagged when over both thresholds (more than the amount, in more than the count).
   */
  async lenderTotals(
    db: Db,
    thresholds: { thresholdCents: number; thresholdCount: number },
    year: number = new Date().getUTCFullYear(),
  ): Promise<LenderTotals> {
    const rows = await queries.lenderTotals(db, year);
    return {
      year,
      threshold: decimal(thresholds.thresholdCents),
      thresholdCount: thresholds.thresholdCount,
      lenders: rows.map((r) => ({
        lenderId: r.lenderId,
        name: r.name,
        gross: decimal(r.grossCents),
        transactions: r.transactions,
        reportable: r.grossCents > thresholds.thresholdCents && r.transactions > thresholds.thresholdCount,
      })),
    };
  },
};
