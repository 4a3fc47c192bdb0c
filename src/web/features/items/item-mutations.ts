import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Item, ItemInput, itemDetail } from '#shared/schemas/items.ts';
import { api } from '../../lib/api.ts';
import { userKeys } from '../users/api.ts';
import { itemKeys } from './api.ts';

// The item page's hooks (spec §7): GET/POST/PUT/DELETE /api/items. Every successful change
// refreshes each item list and profile (spec §7: after a mutation the related lists are refetched).

export type ItemDetail = z.infer<typeof itemDetail>;

/** GET /api/items/{id}: the item (with its owner) and its reviews. */
export function useItem(id: string | undefined) {
  return useQuery({
    queryKey: itemKeys.detail(id ?? ''),
    queryFn: () => api.get<ItemDetail>(`/api/items/${encodeURIComponent(id ?? '')}`),
    enabled: Boolean(id),
  });
}

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
