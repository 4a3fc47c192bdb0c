import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Extension, ExtensionInput } from '#shared/schemas/extensions.ts';
import { api } from '../../lib/api.ts';
import { notificationKeys } from '../../lib/query-keys.ts';
import { itemKeys } from '../items/api.ts';
import { type PaymentIntent, reservationKeys } from './queries.ts';

// Decision 031: more days on a booking. Every answer refetches the reservations (the
// card and its end date), the notifications and the items (the booked days of the calendar).

type ExtensionAnswer = { success: true; extension: Extension };

const on = (id: string, action: string) => `/api/extensions/${encodeURIComponent(id)}/${action}`;
const ofBooking = (id: string, path: string) => `/api/reservations/${encodeURIComponent(id)}/${path}`;

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  };
}

/** POST /api/reservations/:id/extension-payment-intent: an authorisation of the extra rental shown. */
export function useExtensionPaymentIntent() {
  return useMutation({
    mutationFn: ({
      reservationId,
      ...body
    }: {
      reservationId: string;
      endDate: string;
      rentalAmount: string;
    }) => api.post<PaymentIntent>(ofBooking(reservationId, 'extension-payment-intent'), body),
  });
}

/** POST /api/reservations/:id/extensions: the borrower's request (with the confirmed payment when paid). */
export function useRequestExtension() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ reservationId, ...body }: ExtensionInput & { reservationId: string }) =>
      api.post<ExtensionAnswer>(ofBooking(reservationId, 'extensions'), body),
    onSuccess: refresh,
  });
}

/** POST /api/extensions/:id/{approve|decline|cancel}: the lender's answer, or the borrower taking it back. */
export function useAnswerExtension() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'approve' | 'decline' | 'cancel' }) =>
      api.post<ExtensionAnswer>(on(id, action)),
    onSuccess: refresh,
  });
}
