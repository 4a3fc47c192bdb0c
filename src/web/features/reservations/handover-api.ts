import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisputeChat, Handover, HandoverInput } from '#shared/schemas/handovers.ts';
import { api } from '../../lib/api.ts';
import { claimQueueKeys, reservationKeys } from './queries.ts';

// Decision 033: the condition of the item at pickup and at return. The records come
// with each reservation; adding to them refetches the reservations (the card shows what was kept).

const ofBooking = (id: string, path: string) => `/api/reservations/${encodeURIComponent(id)}/${path}`;

/** POST /api/reservations/:id/handovers: photos (upload pipeline URLs) and a note for one stage. */
export function useAddHandover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reservationId, ...body }: HandoverInput & { reservationId: string }) =>
      api.post<{ success: true; handovers: Handover[] }>(ofBooking(reservationId, 'handovers'), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reservationKeys.all }),
  });
}

/** GET /api/admin/claims/:id/chat: a disputed reservation's chat, read-only (moderators). */
export function useDisputeChat(reservationId: string) {
  return useQuery({
    queryKey: [...claimQueueKeys.all, reservationId, 'chat'],
    queryFn: () => api.get<DisputeChat>(`/api/admin/claims/${encodeURIComponent(reservationId)}/chat`),
  });
}
