import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { PAYMENT_STEP_KINDS, PAYMENT_STEP_PURPOSES, PAYMENT_STEP_STATUSES } from '../constants.ts';
import { ownCases } from './moderation.ts';

// Moderators' view of the payment outbox (decision 012): provider calls that keep failing,
// and intents whose billing rows and provider disagree.

export const paymentStepView = z.object({
  id: z.uuid(),
  paymentIntentId: z.string(),
  reservationId: z.uuid().nullable(),
  kind: z.enum(PAYMENT_STEP_KINDS),
  purpose: z.enum(PAYMENT_STEP_PURPOSES),
  status: z.enum(PAYMENT_STEP_STATUSES),
  /** Decimal string, like every amount in answers. */
  amount: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  itemTitle: z.string().nullable(),
  borrowerName: z.string().nullable(),
  lenderName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PaymentStepView = z.infer<typeof paymentStepView>;

export const paymentMismatchView = z.object({
  id: z.uuid(),
  paymentIntentId: z.string(),
  reservationId: z.uuid().nullable(),
  itemTitle: z.string().nullable(),
  /** Charged minus refunded, as our billing rows say and as the provider says. */
  billingNet: z.string(),
  providerNet: z.string(),
  detectedAt: z.string(),
});
export type PaymentMismatchView = z.infer<typeof paymentMismatchView>;

export const adminPaymentsResponse = z.object({
  steps: z.array(paymentStepView),
  mismatches: z.array(paymentMismatchView),
  ownCases,
});
export type AdminPayments = z.infer<typeof adminPaymentsResponse>;

export const paymentStepIdParams = z.object({ id: z.uuid({ error: () => t`Payment step not found` }) });
export const paymentMismatchIdParams = z.object({ id: z.uuid({ error: () => t`Finding not found` }) });
export const resolveMismatchInput = z.object({
  note: z
    .string({ error: () => t`Say what was done about it` })
    .trim()
    .min(3, { error: () => t`Say what was done about it` })
    .max(2000, { error: () => t`The note must be at most 2000 characters` }),
});
