import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  Availability,
  ClaimQueue,
  paymentIntentResponse,
  Reservation,
  ReservationInput,
} from '#shared/schemas/reservations.ts';
import { api } from '../../lib/api.ts';
import { notificationKeys, reservationListKey, userKeys } from '../../lib/query-keys.ts';
import { itemKeys } from '../items/api.ts';

// Reservations (spec §7; contract in src/shared/schemas/reservations.ts). Every successful change
// refetches the lists it touches (spec §7): reservations, notifications, items (availability and the
// booked dates live under the items key) and profiles (the Borrowed tab).

export const reservationKeys = {
  all: reservationListKey,
  /** Under the items key so that every item refresh also refreshes the dates the picker greys out. */
  availability: (itemId: string) => [...itemKeys.all, itemId, 'availability'] as const,
};

export type PaymentIntent = z.infer<typeof paymentIntentResponse>;

export interface PaymentIntentRequest {
  itemId: string;
  startDate: string;
  endDate: string;
  /** Decimal strings of what the dialog showed; the server answers 409 when its own differ. */
  depositAmount: string;
  rentalAmount: string;
}

export type StatusUpdate = {
  id: string;
  status: 'active' | 'returned' | 'completed' | 'cancelled';
  pickupCode?: string;
  /** The rental refund an early-return dialog showed (decision 034); the server answers 409 if not so. */
  earlyRefund?: string;
};

/** The lender's "Report a problem" and the borrower's answer to it. */
export type ClaimAction =
  | { id: string; kind: 'claim'; description: string; amount: string; photos: string[] }
  | { id: string; kind: 'accept' }
  | { id: string; kind: 'dispute'; note: string; photos: string[] };

const url = (id: string, action = '') => `/api/reservations/${encodeURIComponent(id)}${action}`;

/**
 * GET /api/reservations: the signed-in person's reservations, as borrower and as lender. The other
 * party changes them too, so a screen that shows them asks again when it mounts (showing the cached
 * list meanwhile).
 */
export function useReservations(enabled = true) {
  return useQuery({
    queryKey: reservationKeys.all,
    queryFn: async () => (await api.get<{ reservations: Reservation[] }>('/api/reservations')).reservations,
    staleTime: 0,
    enabled,
  });
}

/** GET /api/items/:id/availability: the item's window, its weekdays and the days already booked. */
export function useAvailability(itemId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: reservationKeys.availability(itemId ?? ''),
    queryFn: () => api.get<Availability>(`/api/items/${encodeURIComponent(itemId ?? '')}/availability`),
    // Other people's bookings change it: fresh each time the dialog opens.
    staleTime: 0,
    enabled: enabled && Boolean(itemId),
  });
}

function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
  };
}

/**
 * POST /api/create-payment-intent: an authorisation for the dialog's total. It changes no list
 * anyone sees (the reservation does not exist yet), so nothing is refetched on success.
 */
export function useCreatePaymentIntent() {
  return useMutation({
    mutationFn: (input: PaymentIntentRequest) => api.post<PaymentIntent>('/api/create-payment-intent', input),
  });
}

/** POST /api/reservations: the request to the lender (with the authorised payment for a paid item). */
export function useCreateReservation() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (input: ReservationInput) =>
      api.post<{ success: true; reservation: Reservation }>('/api/reservations', input),
    onSuccess: refresh,
  });
}

/**
 * POST /api/reservations/:id/card (decision 062): the borrower confirms a saved card for a booking whose
 * hold close to the start was refused. The bank may still ask them to authenticate: its page follows.
 */
export function useFixCard(reservationId: string) {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (paymentMethodId: string) =>
      api.post<{ status: string; paymentIntentId: string; nextActionUrl?: string | null }>(
        `/api/reservations/${reservationId}/card`,
        { paymentMethodId },
      ),
    onSuccess: (answer) => {
      if (answer.nextActionUrl) window.location.assign(answer.nextActionUrl);
      else refresh();
    },
  });
}

/**
 * POST /api/reservations/complete-payment: back from the bank's 3-D Secure page, the request is made
 * from what the payment was for (a second return finds it made).
 */
export function useCompletePayment() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (paymentIntentId: string) =>
      api.post<{ success: true; reservation: Reservation; created: boolean }>(
        '/api/reservations/complete-payment',
        { paymentIntentId },
      ),
    onSuccess: refresh,
  });
}

/** PUT /api/reservations/:id: Picked Up (the lender's with the pickup code), returned, cancelled. */
export function useUpdateReservationStatus() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, ...body }: StatusUpdate) =>
      api.put<{ success: true; reservation: Reservation }>(url(id), body),
    onSuccess: refresh,
  });
}

/** POST /api/reservations/:id/claim, /claim/accept, /claim/dispute. */
export function useClaimAction() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (action: ClaimAction) => {
      const path =
        action.kind === 'claim' ? '/claim' : action.kind === 'accept' ? '/claim/accept' : '/claim/dispute';
      const body =
        action.kind === 'claim'
          ? { description: action.description, amount: action.amount, photos: action.photos }
          : action.kind === 'dispute'
            ? { note: action.note, photos: action.photos }
            : {};
      return api.post<{ success: true; reservation: Reservation }>(url(action.id, path), body);
    },
    onSuccess: refresh,
  });
}

/** POST /api/reservations/:id/approve (the lender). */
export function useApproveReservation() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: string) => api.post<{ success: true; reservation: Reservation }>(url(id, '/approve')),
    onSuccess: refresh,
  });
}

/** POST /api/reservations/:id/decline (the lender), with an optional reason the borrower sees. */
export function useDeclineReservation() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string }) => {
      const trimmed = reason?.trim();
      return api.post<{ success: true; reservation: Reservation }>(
        url(id, '/decline'),
        trimmed ? { reason: trimmed } : {},
      );
    },
    onSuccess: refresh,
  });
}

/** GET /api/admin/claims: disputed deposit claims with both sides (moderators). */
export const claimQueueKeys = { all: ['/api/admin/claims'] as const };

export function useDisputedClaims() {
  return useQuery({
    queryKey: claimQueueKeys.all,
    queryFn: () => api.get<ClaimQueue>('/api/admin/claims'),
  });
}

/** POST /api/admin/claims/:id/decide: how much of the claim the lender keeps. */
export function useDecideClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, amountAwarded, note }: { id: string; amountAwarded: string; note?: string }) =>
      api.post<{ success: true; reservation: Reservation }>(
        `/api/admin/claims/${encodeURIComponent(id)}/decide`,
        note?.trim() ? { amountAwarded, note: note.trim() } : { amountAwarded },
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: claimQueueKeys.all }),
  });
}
