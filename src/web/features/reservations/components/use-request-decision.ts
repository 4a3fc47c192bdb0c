import { useLingui } from '@lingui/react/macro';
import { useNavigate } from 'react-router';
import type { ReservationStatus } from '#shared/constants.ts';
import type { Notification } from '#shared/schemas/notifications.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { approvalFailureToast } from '../approval-failure.ts';
import { approvalToast } from '../money-wording.ts';
import { useApproveReservation, useDeclineReservation } from '../queries.ts';

// Spec §2 Notifications (page and header dropdown): the lender approves or declines a request
// from its notification, with the notifications screen's own toasts (spec §8).

export function useRequestDecision() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const approve = useApproveReservation();
  const decline = useDeclineReservation();
  return {
    busy: approve.isPending || decline.isPending,
    approve: (id: string) =>
      approve.mutate(id, {
        // Spec §8 said the borrower 'can now proceed with payment'; the card was authorised at the
        // request and approval charges it, so the toast says that (decision 025).
        onSuccess: ({ reservation }) =>
          toast({
            title: t`Reservation approved`,
            description: approvalToast(reservation),
            // Spec §3 Toast `action`: on to the approved card, where the pickup happens.
            action: {
              label: t`View`,
              altText: t`Open My Reservations from the menu`,
              onClick: () => navigate(paths.reservation(reservation.id)),
            },
          }),
        onError: (failure) => toast(approvalFailureToast(failure, navigate)),
      }),
    decline: (id: string, reason?: string, onDone?: () => void) =>
      decline.mutate(
        { id, ...(reason?.trim() ? { reason } : {}) },
        {
          onSuccess: () => {
            onDone?.();
            toast({ title: t`Reservation declined`, description: t`The borrower has been notified.` });
          },
          onError: (failure) =>
            toast({
              variant: 'destructive',
              title: t`Decline failed`,
              description: errorMessage(failure, t`Failed to decline reservation.`),
            }),
        },
      ),
  };
}

/** The reservation a request notification is about, and whether it still waits for an answer. */
export function requestState(
  notification: Notification,
  reservations: readonly Reservation[] | undefined,
): {
  reservationId: string;
  status: ReservationStatus | undefined;
  pending: boolean;
  /** A paid request: approving it needs the lender's payouts active. */
  paid: boolean;
} | null {
  if (notification.type !== 'reservation_request' || !notification.relatedReservationId) return null;
  const reservation = reservations?.find((r) => r.id === notification.relatedReservationId);
  const status = reservation?.status;
  // Not in the list (yet): keep the buttons and let the server answer.
  return {
    reservationId: notification.relatedReservationId,
    status,
    pending: !status || status === 'pending',
    paid: Boolean(reservation?.stripePaymentIntentId),
  };
}
