import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WaitlistEntry, WaitlistInput } from '#shared/schemas/waitlist.ts';
import { api } from '../../lib/api.ts';
import { itemKeys } from '../items/api.ts';

// The waitlist (decision 030; contract in src/shared/schemas/waitlist.ts): the signed-in student's
// "Notify me when available" entries for one item.

export const waitlistKeys = {
  /** Under the item's key: refreshing the item (after a reservation changes) refreshes these too. */
  forItem: (itemId: string) => [...itemKeys.all, itemId, 'waitlist'] as const,
};

const itemUrl = (itemId: string) => `/api/items/${encodeURIComponent(itemId)}/waitlist`;

/** GET /api/items/:id/waitlist: waiting entries, and those told in the last week. */
export function useWaitlist(itemId: string, enabled = true) {
  return useQuery({
    queryKey: waitlistKeys.forItem(itemId),
    queryFn: async () => (await api.get<{ entries: WaitlistEntry[] }>(itemUrl(itemId))).entries,
    staleTime: 0,
    enabled,
  });
}

/** The dates the student was last told are free: the Reserve dialog starts on them. */
export function toldDates(entries: readonly WaitlistEntry[] | undefined) {
  const told = (entries ?? [])
    .filter((e) => e.status === 'notified' && e.notifiedAt)
    .sort((a, b) => (b.notifiedAt ?? '').localeCompare(a.notifiedAt ?? ''));
  return told[0] ? { startDate: told[0].startDate, endDate: told[0].endDate } : null;
}

export function useJoinWaitlist(itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WaitlistInput) => api.post<{ entry: WaitlistEntry }>(itemUrl(itemId), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.forItem(itemId) }),
  });
}

export function useLeaveWaitlist(itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) =>
      api.delete<{ success: true }>(`/api/waitlist/${encodeURIComponent(entryId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.forItem(itemId) }),
  });
}
