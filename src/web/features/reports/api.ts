import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Report, ReportInput } from '#shared/schemas/reports.ts';
import { api } from '../../lib/api.ts';

// What other features may use of reports: the hooks below and the reasons' names.
export { REPORT_REASON_NAMES } from './report-reasons.ts';

// Spec §7 POST /api/reports ("success toast; reports refreshed") and the caller's own reports, which
// tell the Report buttons whether a report about that item or person is still open.

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

/** The open report the caller already filed about this item or person, if any. */
export function openReportAbout(
  reports: Report[] | undefined,
  target: { itemId: string } | { userId: string },
): Report | undefined {
  return reports?.find(
    (r) =>
      r.status === 'pending' &&
      ('itemId' in target
        ? r.reportedItemId === target.itemId
        : r.reportedItemId === null && r.reportedUserId === target.userId),
  );
}
