import { approve, cancel, decline, expirePending } from './answer.ts';
import { remindLapsing } from './lapse-reminders.ts';
import { completeExtensionPayment, createPaymentIntent, request } from './request.ts';
import { summaryFor } from './views.ts';

// More days on a booking (decision 031), part of the booking's lifecycle: the request (request.ts),
// the answer (answer.ts), and what the booking's own changes do to it (with-booking.ts).

export const extensionService = {
  createPaymentIntent,
  request,
  completePayment: completeExtensionPayment,
  approve,
  decline,
  cancel,
  expirePending,
  remindLapsing,
  summaryFor,
};
