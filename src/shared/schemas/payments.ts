import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { BILLING_KINDS, BILLING_STATUSES } from '../constants.ts';
import { plainText } from './fields.ts';

// Payments (spec §3 saved_payment_methods and billing_history, §7).

export const clientConfig = z.object({
  payments: z.object({
    provider: z.enum(['test', 'stripe']),
    /** Stripe's publishable key when the Stripe provider is active. */
    publishableKey: z.string().nullable(),
  }),
  /**
   * Decision 055: the platform's share of a rental, as the server charges it: the borrower's service
   * fee (percent, smallest and largest, decimal strings) and the lender's commission percent.
   */
  fees: z.object({
    serviceFeePercent: z.number(),
    serviceFeeMin: z.string(),
    serviceFeeMax: z.string(),
    lenderCommissionPercent: z.number(),
  }),
});
export type ClientConfig = z.infer<typeof clientConfig>;

export const testCard = z.object({
  number: plainText(() => t`Card number is required`)
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => /^\d{12,19}$/.test(v), { error: () => t`Card number is incomplete` }),
  expMonth: z.coerce
    .number({ error: () => t`Expiry month is required` })
    .int()
    .min(1, { error: () => t`Invalid expiry month` })
    .max(12, { error: () => t`Invalid expiry month` }),
  expYear: z.coerce
    .number({ error: () => t`Expiry year is required` })
    .int()
    .min(2000, { error: () => t`Invalid expiry year` })
    .max(2100, { error: () => t`Invalid expiry year` }),
  cvc: z
    .string({ error: () => t`CVC is required` })
    .regex(/^\d{3,4}$/, { error: () => t`CVC is incomplete` }),
});
export type TestCard = z.input<typeof testCard>;

export const testConfirmInput = z.object({ paymentIntentId: plainText().min(1).max(200), card: testCard });
/** A card confirmation's outcome (the test provider's confirm, a saved card's checkout). */
export const paymentConfirmResponse = z.object({
  status: z.string(),
  paymentIntentId: z.string(),
  /** Set when the bank asks the cardholder to authenticate (3-D Secure): where to send the browser. */
  nextActionUrl: z.string().nullable().optional(),
});

/** Checkout with a saved card: the checkout's intent and one of the caller's saved cards. */
export const payWithSavedCardInput = z.object({
  paymentIntentId: plainText(() => t`paymentIntentId is required`)
    .trim()
    .min(1, { error: () => t`paymentIntentId is required` })
    .max(200, { error: () => t`paymentIntentId is too long` }),
  paymentMethodId: z.uuid({ error: () => t`Payment method not found` }),
});

export const testConfirmResponse = paymentConfirmResponse;

/** The test bank's 3-D Secure page: the cardholder approves or refuses. */
export const testAuthenticateInput = z.object({
  paymentIntentId: plainText().min(1).max(200),
  approved: z.boolean(),
});

export const savedPaymentMethod = z.object({
  id: z.uuid(),
  type: z.string(),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  expiryMonth: z.number().int().nullable(),
  expiryYear: z.number().int().nullable(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type SavedPaymentMethod = z.infer<typeof savedPaymentMethod>;
export const paymentMethodList = z.object({ paymentMethods: z.array(savedPaymentMethod) });

export const billingEntry = z.object({
  id: z.uuid(),
  reservationId: z.uuid().nullable(),
  stripePaymentIntentId: z.string().nullable(),
  /** Decimal string with two decimals. */
  amount: z.string(),
  currency: z.string(),
  status: z.enum(BILLING_STATUSES),
  /** payment (the borrower's: held, then charged or released), refund (of charged money), earning (the lender's). */
  kind: z.enum(BILLING_KINDS),
  /** A refund's own id at the provider (re_…), once it is made; null for other rows. */
  refundId: z.string().nullable(),
  description: z.string(),
  paymentMethodType: z.string().nullable(),
  paymentMethodLast4: z.string().nullable(),
  refundAmount: z.string().nullable(),
  refundedAt: z.string().nullable(),
  /**
   * Decision 055: the service fee a payment row's amount includes (decimal string), shown as its own
   * line; null for other rows and for payments without one.
   */
  serviceFee: z.string().nullable(),
  createdAt: z.string(),
});
export type BillingEntry = z.infer<typeof billingEntry>;
export const billingHistoryResponse = z.object({ transactions: z.array(billingEntry) });
