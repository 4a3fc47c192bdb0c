import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ask, AskInput, AskOffer } from '#shared/schemas/asks.ts';
import { api } from '../../lib/api.ts';

// Ask your campus (decision 066; contract in src/shared/schemas/asks.ts): the campus board, the
// signed-in student's own asks with their offers, asking, offering and closing.

export const askKeys = {
  all: ['asks'] as const,
  board: () => [...askKeys.all, 'board'] as const,
  mine: () => [...askKeys.all, 'mine'] as const,
};

/** GET /api/asks: the student's campus board, newest first. */
export function useAskBoard(enabled = true) {
  return useQuery({
    queryKey: askKeys.board(),
    queryFn: async () => (await api.get<{ asks: Ask[] }>('/api/asks')).asks,
    enabled,
  });
}

/** GET /api/asks?mine=true: the student's own asks, open or closed, with every offer. */
export function useMyAsks(enabled = true) {
  return useQuery({
    queryKey: askKeys.mine(),
    queryFn: async () => (await api.get<{ asks: Ask[] }>('/api/asks?mine=true')).asks,
    enabled,
  });
}

export function useCreateAsk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AskInput) => api.post<{ ask: Ask }>('/api/asks', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: askKeys.all }),
  });
}

/** "I have one": offers one of the student's listings for an ask. */
export function useOfferForAsk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ askId, itemId }: { askId: string; itemId: string }) =>
      api.post<{ offer: AskOffer }>(`/api/asks/${encodeURIComponent(askId)}/offers`, { itemId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: askKeys.all }),
  });
}

export function useCloseAsk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (askId: string) => api.delete<{ ask: Ask }>(`/api/asks/${encodeURIComponent(askId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: askKeys.all }),
  });
}
