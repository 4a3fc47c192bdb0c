import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { JOURNAL_PROBLEMS } from '../constants.ts';

// Moderators' view of the journal (decision 058): what its reconciliation found wrong with a booking,
// and each lender's yearly totals against the US 1099-K thresholds.

export const journalFindingView = z.object({
  id: z.uuid(),
  reservationId: z.uuid(),
  itemTitle: z.string().nullable(),
  problem: z.enum(JOURNAL_PROBLEMS),
  /** Captured − refunded − disputed, as a decimal string. */
  cash: z.string(),
  /** Transferred − reversed + fees + payable + held. */
  accounted: z.string(),
  detectedAt: z.string(),
});
export type JournalFindingView = z.infer<typeof journalFindingView>;

export const journalFindingsResponse = z.object({ findings: z.array(journalFindingView) });
export type JournalFindings = z.infer<typeof journalFindingsResponse>;

export const lenderTotalsQuery = z.object({
  year: z.coerce
    .number({ error: () => t`Choose a year` })
    .int({ error: () => t`Choose a year` })
    .min(2000, { error: () => t`Choose a year from 2000 on` })
    .max(2100, { error: () => t`Choose a year before 2100` })
    .optional(),
});

export const lenderTotal = z.object({
  lenderId: z.uuid(),
  /** Null once the lender's account is gone. */
  name: z.string().nullable(),
  /** Paid to the lender in the year (charged payments' earnings, less what was taken back), decimal. */
  gross: z.string(),
  /** How many payments they earned on in the year. */
  transactions: z.number().int(),
  /** Over both thresholds: the provider reports them to the IRS on a 1099-K. */
  reportable: z.boolean(),
});
export type LenderTotal = z.infer<typeof lenderTotal>;

export const lenderTotalsResponse = z.object({
  year: z.number().int(),
  threshold: z.string(),
  thresholdCount: z.number().int(),
  lenders: z.array(lenderTotal),
});
export type LenderTotals = z.infer<typeof lenderTotalsResponse>;
