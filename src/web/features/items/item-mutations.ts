import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Item, ItemInput } from '#shared/schemas/items.ts';
import { api } from '../../lib/api.ts';
import { userKeys } from '../../lib/query-keys.ts';
import { itemKeys } from './api.ts';

// The item page's changes (spec §7): POST/PUT/DELETE /api/items (the item itself is read by api.ts). Every successful change
// refreshes each item list and profile (spec §7: after a mutation the related lists are refetched).

function useRefreshItems() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
  };
}

export function useCreateItem() {
  const refresh = useRefreshItems();
  return useMutation({
    mutationFn: (input: ItemInput) => api.post<{ item: Item }>('/api/items', input),
    onSuccess: refresh,
  });
}

export function useUpdateItem(id: string) {
  const refresh = useRefreshItems();
  return useMutation({
    mutationFn: (input: ItemInput) => api.put<{ item: Item }>(`/api/items/${encodeURIComponent(id)}`, input),
    onSuccess: refresh,
  });
}

export function useDeleteItem() {
  const queryClient = useQueryClient();
  const refresh = useRefreshItems();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ success: true }>(`/api/items/${encodeURIComponent(id)}`),
    onSuccess: (_data, id) => {
      // The page being left must not refetch the item it just deleted (a 404 flash).
      queryClient.removeQueries({ queryKey: itemKeys.detail(id), exact: true });
      refresh();
    },
  });
}
