import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { CANCELLATION_POLICIES } from '../booking/cancellation-policy.ts';
import { LIMITS, PICKUP_METHODS, RENTAL_PERIODS, RESERVATION_STATUSES } from '../constants.ts';
import { extension } from './extensions.ts';
import { calendarDayOf, plainText } from './fields.ts';
import { handover } from './handovers.ts';
import { photoUrl } from './items.ts';
import { ownCases } from './moderation.ts';

// Reservations (spec §3, §4, §5, §7). Dates are calendar days 'YYYY-MM-DD'.

export const reservationDates = z.object({
  itemId: z.uuid({ error: () => t`Item not found` }),
  startDate: calendarDayOf(() => t`Please choose a start date`),
  endDate: calendarDayOf(() => t`Please choose an end date`),
});

export const reservationInput = reservationDates.extend({
  /** The authorised payment for a paid item; absent for a free one. */
  stripePaymentIntentId: plainText().max(200).optional().nullable(),
  /**
   * Decision 062: for a booking that starts far ahead (the payment intent answered `authoriseFrom`),
   * the saved card it is held with close to the start; the intent is then not confirmed now.
   */
  paymentMethodId: z
    .uuid({ error: () => t`Payment method not found` })
    .optional()
    .nullable(),
});
export type ReservationInput = z.input<typeof reservationInput>;

/** Amounts the dialog showed; the server recomputes them and answers 409 when they differ. */
/** An amount the dialog showed: dollars with at most two decimals, as text or a number. */
const shownAmount = (notAnAmount: () => string) =>
  z
    .union([z.string(), z.number()], { error: notAnAmount })
    .transform(String)
    .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(v.trim()), { error: notAnAmount })
    .transform((v) => v.trim());

export const paymentIntentInput = reservationDates.extend({
  depositAmount: shownAmount(() => t`The deposit must be an amount like 12.50`),
  rentalAmount: shownAmount(() => t`The rental must be an amount like 12.50`),
});
export const paymentIntentResponse = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  /** Decimal string of the total authorised: rental, service fee and deposit. */
  amount: z.string(),
  /**
   * When a request made now must be answered at the latest, its hold released if not (decision 057): the
   * expiry hours, its start day, or six days of the card held, whichever comes first.
   */
  answerBy: z.string(),
  /** Decimal string of the service fee the total includes (decision 055); "0.00" when there is none. */
  serviceFeeAmount: z.string(),
  /**
   * Decision 062: null, the card is held now (confirm this intent); an instant, the booking starts far
   * ahead: the card is saved now (a SetupIntent, then the request names the saved card) and held
   * off-session from then on, a few days before the start.
   */
  authoriseFrom: z.string().nullable().optional(),
});

/** The borrower fixes the card of a booking whose off-session hold failed (decision 062): a saved card. */
export const fixCardInput = z.object({
  paymentMethodId: z.uuid({ error: () => t`Payment method not found` }),
});

/** The 3-D Secure return to /reservations: the request is made from what the payment was for. */
export const completePaymentInput = z.object({
  paymentIntentId: z
    .string()
    .trim()
    .min(1, { error: () => t`Payment not found.` })
    .max(200, { error: () => t`Payment not found.` }),
});

/** The status changes a party may ask for through PUT (approve and decline have their own calls). */
export const statusUpdateInput = z.object({
  status: z.enum(['active', 'returned', 'completed', 'cancelled'], { error: () => t`Unknown status` }),
  /** The six digits the borrower shows; required when the lender marks 'Item Collected'. */
  pickupCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: () => t`The pickup code has 6 digits` })
    .optional(),
  /**
   * Decision 034: the rental refund the early-return dialog showed. When today's differs (the dialog was
   * opened before campus midnight), the server answers 409 and changes nothing.
   */
  earlyRefund: shownAmount(() => t`The early return refund must be an amount like 12.50`).optional(),
});
export const declineInput = z
  .object({
    reason: plainText()
      .trim()
      .max(500, { error: () => t`Reason must be at most 500 characters` })
      .optional(),
  })
  // No reason at all may come as no body.
  .nullish();

const party = z.object({
  id: z.uuid(),
  fullName: z.string(),
  username: z.string(),
  profileImage: z.string().nullable(),
});

/** The stage of a return and its deposit claim, with its deadline and amounts (decimal strings). */
export const depositClaim = z.object({
  /** When the borrower said it is back. */
  returnedAt: z.string().nullable(),
  /** The lender answers by then, or the deposit is released on its own (while returned). */
  confirmBy: z.string().nullable(),
  /** An overdue borrow's lender may claim from then. */
  claimableFrom: z.string().nullable(),
  amountClaimed: z.string().nullable(),
  description: z.string().nullable(),
  /** The lender's photos of the problem (the upload pipeline's URLs). */
  photos: z.array(z.string()),
  claimedAt: z.string().nullable(),
  disputeNote: z.string().nullable(),
  /** The borrower's photos with their dispute. */
  disputePhotos: z.array(z.string()),
  disputedAt: z.string().nullable(),
  /** What the lender keeps from the deposit in the end (the claim accepted, or the moderator's award). */
  amountAwarded: z.string().nullable(),
  /** What of the deposit goes back to the borrower once settled. */
  depositRefund: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});
export type DepositClaim = z.infer<typeof depositClaim>;

/** Photos with a claim or a dispute: URLs the upload pipeline gave out, at most five. */
const maxPhotos = LIMITS.photosPerItem;
const claimPhotos = z
  .array(photoUrl)
  .max(LIMITS.photosPerItem, { error: () => t`You can add at most ${maxPhotos} photos.` })
  .default([])
  .transform((urls) => urls.filter((url) => url && url !== 'null' && url !== 'undefined'));

export const claimInput = z.object({
  description: plainText()
    .trim()
    .min(10, { error: () => t`Please describe the problem in at least 10 characters` })
    .max(2000, { error: () => t`The description must be at most 2000 characters` }),
  amount: shownAmount(() => t`The amount claimed must be an amount like 12.50`),
  photos: claimPhotos,
});
export const disputeInput = z.object({
  note: plainText()
    .trim()
    .min(10, { error: () => t`Please explain in at least 10 characters why you dispute the claim` })
    .max(2000, { error: () => t`The note must be at most 2000 characters` }),
  photos: claimPhotos,
});
export const claimDecisionInput = z.object({
  amountAwarded: shownAmount(() => t`The amount awarded must be an amount like 12.50`),
  note: plainText()
    .trim()
    .max(2000, { error: () => t`The note must be at most 2000 characters` })
    .optional(),
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
  /**
   * Decision 055: the borrower's service fee on the rental, held and charged with it ("0.00" on a free
   * item and on bookings made before the fee). Shown to both parties; the lender does not earn it.
   */
  serviceFeeAmount: z.string(),
  stripePaymentIntentId: z.string().nullable(),
  /** Only while approved, and only to the two parties. */
  pickupCode: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** The item's policy when it was requested: what a borrower's cancellation refunds. */
  cancellationPolicy: z.enum(CANCELLATION_POLICIES),
  /** Who cancelled it, once cancelled. */
  cancelledBy: z.enum(['borrower', 'provider', 'system']).nullable(),
  createdAt: z.string(),
  /** A pending request's answer-by time (ISO): it expires unanswered then. Null once answered. */
  respondBy: z.string().nullable(),
  /**
   * Decision 062: a booking that started far ahead: its saved card is held off-session from `from`
   * (then charged if approved); `held` once it is; `problem` when the bank refused, to be fixed by
   * `fixBy` or the booking is cancelled. Null: the card was held at the request.
   */
  cardHold: z
    .object({
      from: z.string(),
      held: z.boolean(),
      problem: z.enum(['declined', 'authentication_required']).nullable(),
      fixBy: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /** Active and past its end date (campus calendar). Derived, not a status. */
  overdue: z.boolean(),
  /** The return and its deposit claim: null until the borrower returns or a claim opens. */
  claim: depositClaim.nullable(),
  item: z.object({
    id: z.uuid(),
    title: z.string(),
    images: z.array(z.string()),
    pickupMethod: z.enum(PICKUP_METHODS),
  }),
  provider: party,
  borrower: party,
  /** The borrower's request for more days still waiting for the lender, if any. */
  pendingExtension: extension.nullable(),
  /** The extra rental of its approved extensions ("0.00" when none): charged on their own payments. */
  extraRentalAmount: z.string(),
  /** The service fee on that extra rental ("0.00" when none). */
  extraServiceFeeAmount: z.string(),
  /** When it was marked "Picked Up" / "Item Collected" (ISO); pickup photos may follow for 24 hours. */
  pickedUpAt: z.string().nullable(),
  /** Both people's records of the item's condition at pickup and at return. */
  handovers: z.array(handover),
  /**
   * Decision 034: what an early return would count: the period the rental was priced by (null: a flat
   * price) and each payment of the rental, the booking's own (`fromEndDate` null) and approved extensions'.
   */
  rentalPeriod: z.enum(RENTAL_PERIODS).nullable(),
  rentalPayments: z.array(
    z.object({
      fromEndDate: z.string().nullable(),
      endDate: z.string(),
      rentalAmount: z.string(),
      /** The service fee paid with this rental: it comes back in the proportion the rental does. */
      serviceFeeAmount: z.string(),
    }),
  ),
  /** The item came back before its last day: `endDate` is the return day, this the end it had. */
  earlyReturn: z.object({ bookedEndDate: z.string(), rentalRefund: z.string() }).nullable(),
});
export type Reservation = z.infer<typeof reservation>;

export const reservationList = z.object({ reservations: z.array(reservation) });
/** GET /api/admin/claims: disputed deposit claims with both sides (the moderators' queue). */
export const claimQueue = z.object({ claims: z.array(reservation), ownCases });
export type ClaimQueue = z.infer<typeof claimQueue>;
export const reservationResponse = z.object({ success: z.literal(true), reservation });
export const completePaymentResponse = reservationResponse.extend({
  /** False when an earlier return had already made the request. */
  created: z.boolean(),
});
export const reservationIdParams = z.object({ id: z.uuid({ error: () => t`Reservation not found` }) });

/** GET /api/items/:id/availability: what the date picker greys out. */
export const availabilityResponse = z.object({
  today: z.string(),
  availableFrom: z.string(),
  availableUntil: z.string().nullable(),
  availableDays: z.array(z.number().int()),
  /** Inclusive ranges already taken by approved or active reservations. */
  booked: z.array(z.object({ startDate: z.string(), endDate: z.string() })),
  /**
   * Inclusive ranges asked for by requests the lender has not answered: still bookable (the lender
   * decides), shown as requested. Only the days, never who asked. Absent from a server before it.
   */
  requested: z.array(z.object({ startDate: z.string(), endDate: z.string() })).optional(),
});
export type Availability = z.infer<typeof availabilityResponse>;
