import { z } from 'zod';
import { CANCELLATION_POLICIES } from '../cancellation-policy.ts';
import { PICKUP_METHODS, RESERVATION_STATUSES } from '../constants.ts';
import { extension } from './extensions.ts';
import { calendarDayOf, plainText } from './fields.ts';

// Reservations (spec §3, §4, §5, §7; issue 4). Dates are calendar days 'YYYY-MM-DD'.

export const reservationDates = z.object({
  itemId: z.uuid('Item not found'),
  startDate: calendarDayOf('Please choose a start date'),
  endDate: calendarDayOf('Please choose an end date'),
});

export const reservationInput = reservationDates.extend({
  /** The authorised payment for a paid item; absent for a free one. */
  stripePaymentIntentId: plainText().max(200).optional().nullable(),
});
export type ReservationInput = z.input<typeof reservationInput>;

/** Amounts the dialog showed; the server recomputes them and answers 409 when they differ. */
/** An amount the dialog showed: dollars with at most two decimals, as text or a number. */
const shownAmount = (label: string) =>
  z
    .union([z.string(), z.number()], { error: `${label} must be an amount like 12.50` })
    .transform(String)
    .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(v.trim()), `${label} must be an amount like 12.50`)
    .transform((v) => v.trim());

export const paymentIntentInput = reservationDates.extend({
  depositAmount: shownAmount('The deposit'),
  rentalAmount: shownAmount('The rental'),
});
export const paymentIntentResponse = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  /** Decimal string of the total authorised. */
  amount: z.string(),
});

/** The 3-D Secure return to /reservations: the request is made from what the payment was for. */
export const completePaymentInput = z.object({
  paymentIntentId: z.string().trim().min(1, 'Payment not found.').max(200, 'Payment not found.'),
});

/** The status changes a party may ask for through PUT (approve and decline have their own calls). */
export const statusUpdateInput = z.object({
  status: z.enum(['active', 'completed', 'cancelled'], { error: 'Unknown status' }),
  /** The six digits the borrower shows; required when the lender marks 'Item Collected'. */
  pickupCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The pickup code has 6 digits')
    .optional(),
});
export const declineInput = z
  .object({ reason: plainText().trim().max(500, 'Reason must be at most 500 characters').optional() })
  .optional();

const party = z.object({
  id: z.uuid(),
  fullName: z.string(),
  username: z.string(),
  profileImage: z.string().nullable(),
});

export const reservation = z.object({
  id: z.uuid(),
  itemId: z.uuid(),
  borrowerId: z.uuid(),
  providerId: z.uuid(),
  startDate: z.string(),
  endDate: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  depositAmount: z.string(),
  rentalAmount: z.string(),
  stripePaymentIntentId: z.string().nullable(),
  /** Only while approved, and only to the two parties. */
  pickupCode: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** The item's policy when it was requested (issue 17): what a borrower's cancellation refunds. */
  cancellationPolicy: z.enum(CANCELLATION_POLICIES),
  /** Who cancelled it, once cancelled. */
  cancelledBy: z.enum(['borrower', 'provider', 'system']).nullable(),
  createdAt: z.string(),
  /** A pending request's answer-by time (ISO): it expires unanswered then. Null once answered. */
  respondBy: z.string().nullable(),
  item: z.object({
    id: z.uuid(),
    title: z.string(),
    images: z.array(z.string()),
    pickupMethod: z.enum(PICKUP_METHODS),
  }),
  provider: party,
  borrower: party,
  /** Issue 18 item 3: the borrower's request for more days still waiting for the lender, if any. */
  pendingExtension: extension.nullable(),
  /** The extra rental of its approved extensions ("0.00" when none): charged on their own payments. */
  extraRentalAmount: z.string(),
});
export type Reservation = z.infer<typeof reservation>;

export const reservationList = z.object({ reservations: z.array(reservation) });
export const reservationResponse = z.object({ success: z.literal(true), reservation });
export const completePaymentResponse = reservationResponse.extend({
  /** False when an earlier return had already made the request. */
  created: z.boolean(),
});
export const reservationIdParams = z.object({ id: z.uuid('Reservation not found') });

/** GET /api/items/:id/availability: what the date picker greys out. */
export const availabilityResponse = z.object({
  today: z.string(),
  availableFrom: z.string(),
  availableUntil: z.string().nullable(),
  availableDays: z.array(z.number().int()),
  /** Inclusive ranges already taken by approved or active reservations. */
  booked: z.array(z.object({ startDate: z.string(), endDate: z.string() })),
});
export type Availability = z.infer<typeof availabilityResponse>;
