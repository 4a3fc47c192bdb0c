import { QueryClient } from '@tanstack/react-query';

// Spec §9 data cache: no automatic retries, never stale on its own, no refetch on focus, unused
// entries dropped after 5 minutes. Queries that need more (the session, polls) say so themselves.
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        gcTime: 5 * 60 * 1000,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      },
      mutations: { retry: false },
    },
  });
}
