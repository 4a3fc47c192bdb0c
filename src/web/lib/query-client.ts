import { type InvalidateOptions, type InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * A query client whose invalidation never keeps an answer that may predate the change it follows.
 * TanStack Query restarts a fetch in flight on invalidation only when the query already has data;
 * a first load still on its way is kept and its answer used. On a slow network that answer can have
 * been read before the change: the borrower back from the bank's 3-D Secure page saw "Borrowing (0)"
 * although the request had just been made (My Reservations' first load raced the request it follows).
 * So such first loads are cancelled before the invalidation refetches them.
 */
class FreshAfterChangeQueryClient extends QueryClient {
  override async invalidateQueries<TTaggedQueryKey extends readonly unknown[] = readonly unknown[]>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    const matches = filters?.predicate;
    await this.cancelQueries({
      ...filters,
      predicate: (query) => query.state.data === undefined && (matches ? matches(query) : true),
    } as InvalidateQueryFilters<TTaggedQueryKey>);
    return super.invalidateQueries(filters, options);
  }
}

// Spec §9 data cache: no automatic retries, never stale on its own, no refetch on focus, unused
// entries dropped after 5 minutes. Queries that need more (the session, polls) say so themselves.
export function createQueryClient(): QueryClient {
  return new FreshAfterChangeQueryClient({
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
