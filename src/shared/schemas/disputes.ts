import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { DISPUTE_FINDINGS, DISPUTE_STATUSES } from '../constants.ts';
import { plainText } from './fields.ts';
import { ownCases } from './moderation.ts';

// Card chargebacks (decision 059): the moderators' list, the evidence sent to the bank, and the
// finding of who bears a lost dispute.

export const adminDispute = z.object({
  id: z.uuid(),
  reservationId: z.uuid().nullable(),
  paymentIntentId: z.string(),
  itemTitle: z.string().nullable(),
  borrowerName: z.string().nullable(),
  lenderName: z.string().nullable(),
  /** Decimal strings, like every amount in answers. */
  amount: z.string(),
  currency: z.string(),
  /** The bank's reason, as the provider names it (fraudulent, product_not_received, …). */
  reason: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  evidenceDueBy: z.string().nullable(),
  withdrawn: z.string(),
  reinstated: z.string(),
  outcome: z.enum(['won', 'lost']).nullable(),
  finding: z.enum(DISPUTE_FINDINGS).nullable(),
  /** What the lender's transfer gives back, when they were found at fault. */
  reversal: z.string().nullable(),
  evidenceSubmittedAt: z.string().nullable(),
  /** Whether the lender's unsent transfers of the booking wait for it. */
  freezesTransfers: z.boolean(),
  createdAt: z.string(),
});
export type AdminDispute = z.infer<typeof adminDispute>;

export const adminDisputesResponse = z.object({ disputes: z.array(adminDispute), ownCases });
export type AdminDisputes = z.infer<typeof adminDisputesResponse>;

/** The provider's text evidence fields, as they would be sent. */
export const disputeEvidence = z.object({
  product_description: z.string().optional(),
  customer_name: z.string().optional(),
  customer_email_address: z.string().optional(),
  service_date: z.string().optional(),
  refund_policy_disclosure: z.string().optional(),
  cancellation_policy_disclosure: z.string().optional(),
  access_activity_log: z.string().optional(),
  uncategorized_text: z.string().optional(),
});
export type DisputeEvidence = z.infer<typeof disputeEvidence>;

export const disputeEvidenceResponse = z.object({ evidence: disputeEvidence });

export const disputeIdParams = z.object({ id: z.uuid({ error: () => t`Dispute not found` }) });

const noteMax = 2000;
const moderatorNote = plainText()
  .trim()
  .max(noteMax, { error: () => t`The note must be at most ${noteMax} characters` });

export const submitEvidenceInput = z
  .object({
    /** The moderator's own words, put first in the evidence's text. */
    note: moderatorNote.optional(),
  })
  // Sending with no note at all is sending with no body.
  .nullish();

export const disputeFindingInput = z.object({
  finding: z.enum(DISPUTE_FINDINGS, { error: () => t`Say who bears the loss` }),
  note: moderatorNote.optional(),
});

export const disputeResponse = z.object({ dispute: adminDispute });

/** The test provider's bank deciding a dispute (tests and the demo only). */
export const testOutcomeInput = z.object({
  outcome: z.enum(['won', 'lost'], { error: () => t`The outcome is won or lost` }),
});
