import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPayments } from '#shared/schemas/payment-steps.ts';
import { api } from '../../lib/api.ts';

// Moderators' payment calls (decision 012): provider calls that keep failing and reconciliation findings.

export const paymentProblemKeys = { all: ['/api/admin/payments'] as const };

export function usePaymentProblems() {
  return useQuery({
    queryKey: paymentProblemKeys.all,
    queryFn: () => api.get<AdminPayments>('/api/admin/payments'),
    // A retried step settles in the background: look again while the page is open.
    refetchInterval: 15_000,
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: paymentProblemKeys.all });
}

export function useRetryPaymentStep() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<{ success: true }>(`/api/admin/payment-steps/${encodeURIComponent(id)}/retry`),
    onSuccess: refresh,
  });
}

export function useResolveMismatch() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      api.post<{ success: true }>(`/api/admin/payment-mismatches/${encodeURIComponent(id)}/resolve`, {
        note,
      }),
    onSuccess: refresh,
  });
}
