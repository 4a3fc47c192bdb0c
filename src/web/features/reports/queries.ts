import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Report, ReportInput } from '#shared/schemas/reports.ts';
import { api } from '../../lib/api.ts';

// Spec §7 POST /api/reports ("success toast; reports refreshed") and the caller's own reports, which
// tell the Report buttons whether a report about that item, ask or person is still open.

export const reportKeys = {
  mine: ['/api/reports'] as const,
};

export function useMyReports(enabled = true) {
  return useQuery({
    queryKey: reportKeys.mine,
    queryFn: async () => (await api.get<{ reports: Report[] }>('/api/reports')).reports,
    enabled,
  });
}

export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportInput) => api.post<{ report: Report }>('/api/reports', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reportKeys.mine }),
  });
}

/** What is reported: an item (with its owner), an ask on the campus board, or a person. */
export type ReportTarget =
  | { kind: 'item'; itemId: string; ownerId: string; name: string }
  | { kind: 'ask'; askId: string; name: string }
  | { kind: 'user'; userId: string; name: string };

/**
 * The open report the caller already filed about this item, ask or person, if any. A report of an item
 * or an ask names its owner too, and is not a report of the person.
 */
export function openReportAbout(reports: Report[] | undefined, target: ReportTarget): Report | undefined {
  return reports?.find((r) => {
    if (r.status !== 'pending') return false;
    if (target.kind === 'item') return r.reportedItemId === target.itemId;
    if (target.kind === 'ask') return r.reportedAskId === target.askId;
    return r.reportedItemId === null && r.reportedAskId === null && r.reportedUserId === target.userId;
  });
}
