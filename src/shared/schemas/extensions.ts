import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { EXTENSION_STATUSES } from '../booking/extensions.ts';
import { calendarDayOf, plainText } from './fields.ts';

// Decision 031: asking for more days on a booking, and the lender's answer.

/** Step 1 for a paid item: an authorisation of the extra rental the dialog showed (409 when it differs). */
export const extensionPaymentIntentInput = z.object({
  endDate: calendarDayOf(() => t`Please choose a new end date`),
  rentalAmount: z
    .string({ error: () => t`The extra rental must be an amount like 12.50` })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, { error: () => t`The extra rental must be an amount like 12.50` }),
});

export const extensionInput = z.object({
  endDate: calendarDayOf(() => t`Please choose a new end date`),
  /** The authorised payment of the extra rental; absent when the extension costs nothing. */
  paymentIntentId: plainText().max(200).optional().nullable(),
});
export type ExtensionInput = z.input<typeof extensionInput>;

export const extension = z.object({
  id: z.uuid(),
  reservationId: z.uuid(),
  previousEndDate: z.string(),
  newEndDate: z.string(),
  /** Decimal string of the extra rental ("0.00" for a free item). */
  rentalAmount: z.string(),
  /** The service fee on the extra rental (decision 055), held and charged with it ("0.00" when none). */
  serviceFeeAmount: z.string(),
  status: z.enum(EXTENSION_STATUSES),
  /** When a pending request lapses unanswered (ISO): the end of the booking's current last day. */
  respondBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Extension = z.infer<typeof extension>;

export const extensionResponse = z.object({ success: z.literal(true), extension });
export const extensionIdParams = z.object({ id: z.uuid({ error: () => t`Extension not found` }) });
