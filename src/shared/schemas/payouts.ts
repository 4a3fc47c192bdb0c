import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { PAYOUT_ACCOUNT_STATUSES, PAYOUT_PURPOSES, PAYOUT_TRANSFER_STATUSES } from '../constants.ts';

// Lenders paid through Stripe Connect (decision 056): where their payouts stand, what was and will be
// sent, and the links into onboarding and the Express dashboard.

export const payoutAccountView = z.object({
  status: z.enum(PAYOUT_ACCOUNT_STATUSES),
  /** What the provider still asks for, as its field names (the page says them in plain words). */
  requirementsDue: z.array(z.string()),
});
export type PayoutAccountView = z.infer<typeof payoutAccountView>;

export const payoutTransferView = z.object({
  id: z.uuid(),
  reservationId: z.uuid().nullable(),
  itemTitle: z.string().nullable(),
  /** Decimal string: what was sent, or what would be sent now when it has not gone yet. */
  amount: z.string(),
  purpose: z.enum(PAYOUT_PURPOSES),
  status: z.enum(PAYOUT_TRANSFER_STATUSES),
  releaseAt: z.string(),
  sentAt: z.string().nullable(),
  paidOutAt: z.string().nullable(),
});
export type PayoutTransferView = z.infer<typeof payoutTransferView>;

export const payoutsResponse = z.object({
  account: payoutAccountView,
  totals: z.object({
    /** Everything the lender earned, by their earning entries. */
    earned: z.string(),
    /** Sent to their account, less what was taken back. */
    sent: z.string(),
    /** Earned and not sent yet (scheduled, or waiting for their account). */
    upcoming: z.string(),
  }),
  transfers: z.array(payoutTransferView),
});
export type PayoutsResponse = z.infer<typeof payoutsResponse>;

export const payoutLinkResponse = z.object({ url: z.string() });

/** The test provider's onboarding page: the lender's answer for their own account. */
export const testOnboardingInput = z.object({
  accountId: z.string().min(1).max(200),
  outcome: z.enum(['complete', 'needs_information', 'rejected']),
});
export const testOnboardingResponse = z.object({ account: payoutAccountView });

// Moderators: transfers and reversals that failed on every retry (decision 061, as built).

export const PAYOUT_PROBLEM_KINDS = ['transfer', 'reversal'] as const;

export const payoutProblemView = z.object({
  kind: z.enum(PAYOUT_PROBLEM_KINDS),
  id: z.uuid(),
  reservationId: z.uuid().nullable(),
  itemTitle: z.string().nullable(),
  lenderId: z.uuid(),
  lenderName: z.string().nullable(),
  /** Decimal string: what was to be sent, or taken back. */
  amount: z.string(),
  lastError: z.string().nullable(),
  attempts: z.number().int(),
  /** When it failed for good. */
  failedAt: z.string(),
});
export type PayoutProblemView = z.infer<typeof payoutProblemView>;

export const payoutProblemsResponse = z.object({ problems: z.array(payoutProblemView) });
export type PayoutProblemsResponse = z.infer<typeof payoutProblemsResponse>;

export const payoutProblemParams = z.object({
  kind: z.enum(PAYOUT_PROBLEM_KINDS, { error: () => t`Say whether it is a transfer or a reversal` }),
  id: z.uuid({ error: () => t`Payout problem not found` }),
});

/** Whether this call scheduled it again (false: it was no longer failed, another call did). */
export const payoutRetryResponse = z.object({ requeued: z.boolean() });
