import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisputeFinding } from '#shared/constants.ts';
import type { AdminDispute, AdminDisputes, DisputeEvidence } from '#shared/schemas/disputes.ts';
import { api } from '../../lib/api.ts';

// Moderators' card disputes (decision 059): the list, the evidence's preview and sending, the finding.

export const disputeKeys = {
  all: ['/api/admin/disputes'] as const,
  evidence: (id: string) => ['/api/admin/disputes', id, 'evidence'] as const,
};

export function useDisputes() {
  return useQuery({
    queryKey: disputeKeys.all,
    queryFn: () => api.get<AdminDisputes>('/api/admin/disputes'),
    // The bank's answers arrive in the background: look again while the page is open.
    refetchInterval: 30_000,
  });
}

export function useDisputeEvidence(id: string, enabled: boolean) {
  return useQuery({
    queryKey: disputeKeys.evidence(id),
    queryFn: () =>
      api.get<{ evidence: DisputeEvidence }>(`/api/admin/disputes/${encodeURIComponent(id)}/evidence`),
    enabled,
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: disputeKeys.all });
}

export function useSubmitEvidence() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string }) =>
      api.post<{ dispute: AdminDispute }>(`/api/admin/disputes/${encodeURIComponent(id)}/evidence`, {
        ...(note ? { note } : {}),
      }),
    onSuccess: refresh,
  });
}

export function useRecordFinding() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, finding, note }: { id: string; finding: DisputeFinding; note?: string }) =>
      api.post<{ dispute: AdminDispute }>(`/api/admin/disputes/${encodeURIComponent(id)}/finding`, {
        finding,
        ...(note ? { note } : {}),
      }),
    onSuccess: refresh,
  });
}
