import { useNavigate } from 'react-router';
import type { ReservationStatus } from '#shared/constants.ts';
import type { Notification } from '#shared/schemas/notifications.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { useApproveReservation, useDeclineReservation } from '../api.ts';
import { approvalToast } from '../money-wording.ts';

// Spec §2 Notifications (page and header dropdown): the lender approves or declines a request
// from its notification, with the notifications screen's own toasts (spec §8).

export function useRequestDecision() {
  const navigate = useNavigate();
  const approve = useApproveReservation();
  const decline = useDeclineReservation();
  return {
    busy: approve.isPending || decline.isPending,
    approve: (id: string) =>
      approve.mutate(id, {
        // Spec §8 said the borrower 'can now proceed with payment'; the card was authorised at the
        // request and approval charges it, so the toast says that (issue 16, decision 025).
        onSuccess: ({ reservation }) =>
          toast({
            title: 'Reservation approved',
            description: approvalToast(reservation),
            // Spec §3 Toast `action` (issue 16): on to the approved card, where the pickup happens.
            action: {
              label: 'View',
              altText: 'Open My Reservations from the menu',
              onClick: () => navigate(paths.reservation(reservation.id)),
            },
          }),
        onError: (failure) =>
          toast({
            variant: 'destructive',
            title: 'Approval failed',
            description: errorMessage(failure, 'Failed to approve reservation.'),
          }),
      }),
    decline: (id: string, reason?: string, onDone?: () => void) =>
      decline.mutate(
        { id, ...(reason?.trim() ? { reason } : {}) },
        {
          onSuccess: () => {
            onDone?.();
            toast({ title: 'Reservation declined', description: 'The borrower has been notified.' });
          },
          onError: (failure) =>
            toast({
              variant: 'destructive',
              title: 'Decline failed',
              description: errorMessage(failure, 'Failed to decline reservation.'),
            }),
        },
      ),
  };
}

/** The reservation a request notification is about, and whether it still waits for an answer. */
export function requestState(
  notification: Notification,
  reservations: readonly Reservation[] | undefined,
): { reservationId: string; status: ReservationStatus | undefined; pending: boolean } | null {
  if (notification.type !== 'reservation_request' || !notification.relatedReservationId) return null;
  const status = reservations?.find((r) => r.id === notification.relatedReservationId)?.status;
  // Not in the list (yet): keep the buttons and let the server answer.
  return {
    reservationId: notification.relatedReservationId,
    status,
    pending: !status || status === 'pending',
  };
}
