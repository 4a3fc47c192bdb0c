import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PayoutAccountView,
  PayoutProblemsResponse,
  PayoutProblemView,
  PayoutsResponse,
} from '#shared/schemas/payouts.ts';
import { api } from '../../lib/api.ts';

// Decision 056: the lender's payouts, as GET /api/payouts answers them, and the links into onboarding
// and the Express dashboard.

export const payoutKeys = { all: ['/api/payouts'] as const };

/** `enabled` false: not asked (a page that needs it only for a paid request waits for one). */
export function usePayouts(enabled = true) {
  return useQuery({
    queryKey: payoutKeys.all,
    queryFn: () => api.get<PayoutsResponse>('/api/payouts'),
    enabled,
  });
}

/**
 * Whether a lender must set up payouts before approving a paid request (decision 056): true only once
 * their account is known not to be active.
 */
export function usePayoutsNeeded(askedFor: boolean): boolean {
  const status = usePayouts(askedFor).data?.account.status;
  return askedFor && status !== undefined && status !== 'active';
}

/** Onboarding: the provider's page (or the test provider's), where the browser goes next. */
export function useStartOnboarding() {
  return useMutation({
    mutationFn: () => api.post<{ url: string }>('/api/payouts/onboarding', {}),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** Back from onboarding: the account read again from the provider. */
export function useRefreshPayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<PayoutAccountView>('/api/payouts/account/refresh', {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
  });
}

export function useOpenDashboard() {
  return useMutation({
    mutationFn: () => api.post<{ url: string }>('/api/payouts/dashboard', {}),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** The test provider's onboarding page answers for the lender's own account. */
export function answerTestOnboarding(
  accountId: string,
  outcome: 'complete' | 'needs_information' | 'rejected',
) {
  return api.post<{ account: PayoutAccountView }>('/api/payouts/test/onboarding', { accountId, outcome });
}

// Moderators (/admin/payments): transfers and reversals to lenders that failed on every retry.

export const payoutProblemKeys = { all: ['/api/admin/payout-problems'] as const };

export function usePayoutProblems() {
  return useQuery({
    queryKey: payoutProblemKeys.all,
    queryFn: () => api.get<PayoutProblemsResponse>('/api/admin/payout-problems'),
    // One tried again settles in the background: look again while the page is open.
    refetchInterval: 15_000,
  });
}

export function useRetryPayoutProblem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: Pick<PayoutProblemView, 'kind' | 'id'>) =>
      api.post<{ requeued: boolean }>(
        `/api/admin/payout-problems/${encodeURIComponent(kind)}/${encodeURIComponent(id)}/retry`,
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: payoutProblemKeys.all }),
  });
}
