import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedSearch, SavedSearchInput } from '#shared/schemas/saved-searches.ts';
import { api } from '../../lib/api.ts';

// Saved searches (decision 067; contract in src/shared/schemas/saved-searches.ts): "Tell me when
// something matches" on Browse, and the list in Settings.

export const savedSearchKeys = { mine: ['saved-searches'] as const };

export function useSavedSearches(enabled = true) {
  return useQuery({
    queryKey: savedSearchKeys.mine,
    queryFn: () => api.get<{ savedSearches: SavedSearch[]; limit: number }>('/api/saved-searches'),
    enabled,
  });
}

export function useSaveSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SavedSearchInput) =>
      api.post<{ savedSearch: SavedSearch }>('/api/saved-searches', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedSearchKeys.mine }),
  });
}

export function useDeleteSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ success: true }>(`/api/saved-searches/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedSearchKeys.mine }),
  });
}

/** The words of a search as the server reads them, so the same search is recognised as kept. */
function wordsOf(text: string): string {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .join(' ');
}

/** The kept search that is this one (same words and filters), if any. */
export function keptSearch(kept: readonly SavedSearch[] | undefined, search: SavedSearchInput) {
  const cents = (amount: number | string | null | undefined) =>
    amount === null || amount === undefined ? null : Math.round(Number(amount) * 100);
  return kept?.find(
    (s) =>
      wordsOf(s.searchQuery) === wordsOf(search.searchQuery) &&
      s.category === (search.category ?? null) &&
      cents(s.maxPrice) === cents(search.maxPrice) &&
      s.freeOnly === (search.freeOnly ?? false),
  );
}
