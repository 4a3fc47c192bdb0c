import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ModeratedAsk,
  ModeratedItem,
  ModeratedUser,
  ModerationActionInput,
  ReportDecisionInput,
  ReportDetail,
  ReportQueue,
  ReportQueueFilter,
} from '#shared/schemas/moderation.ts';
import { api } from '../../lib/api.ts';
import { userKeys } from '../../lib/query-keys.ts';
import { askKeys } from '../asks/api.ts';
import { itemKeys } from '../items/api.ts';

// The moderators' calls (/api/admin/*). Every action refreshes the queue, the open report, and the
// item lists, the asks board and profiles (a hidden item or ask, or a suspended owner's listings, leave
// them).

const PAGE_SIZE = 20;

export const moderationKeys = {
  all: ['/api/admin'] as const,
  queue: (status: ReportQueueFilter) => [...moderationKeys.all, 'reports', status] as const,
  report: (id: string) => [...moderationKeys.all, 'report', id] as const,
};

export function useReportQueue(status: ReportQueueFilter) {
  return useInfiniteQuery({
    queryKey: moderationKeys.queue(status),
    queryFn: ({ pageParam }) =>
      api.get<ReportQueue>(`/api/admin/reports?status=${status}&page=${pageParam}&limit=${PAGE_SIZE}`),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

export function useReportDetail(id: string | undefined) {
  return useQuery({
    queryKey: moderationKeys.report(id ?? ''),
    queryFn: () => api.get<ReportDetail>(`/api/admin/reports/${encodeURIComponent(id ?? '')}`),
    enabled: Boolean(id),
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    void queryClient.invalidateQueries({ queryKey: askKeys.all });
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
  };
}

export function useAddNote(reportId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (note: string) => api.post<ReportDetail>(`/api/admin/reports/${reportId}/notes`, { note }),
    onSuccess: refresh,
  });
}

export function useDecideReport(reportId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ decision, ...body }: ReportDecisionInput & { decision: 'resolve' | 'dismiss' }) =>
      api.post<ReportDetail>(`/api/admin/reports/${reportId}/${decision}`, body),
    onSuccess: refresh,
  });
}

export type TargetAction = 'hide' | 'unhide' | 'hideAsk' | 'unhideAsk' | 'suspend' | 'unsuspend';

/** Where each action is sent, by the id of what it acts on. */
const ACTION_PATHS: Record<TargetAction, (id: string) => string> = {
  hide: (id) => `/api/admin/items/${id}/hide`,
  unhide: (id) => `/api/admin/items/${id}/unhide`,
  hideAsk: (id) => `/api/admin/asks/${id}/hide`,
  unhideAsk: (id) => `/api/admin/asks/${id}/unhide`,
  suspend: (id) => `/api/admin/users/${id}/suspend`,
  unsuspend: (id) => `/api/admin/users/${id}/unsuspend`,
};

/** Hide/unhide an item or an ask, suspend/unsuspend a person. */
export function useTargetAction() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({
      action,
      targetId,
      ...body
    }: ModerationActionInput & { action: TargetAction; targetId: string }) =>
      api.post<{ item?: ModeratedItem; ask?: ModeratedAsk; user?: ModeratedUser }>(
        ACTION_PATHS[action](encodeURIComponent(targetId)),
        body,
      ),
    onSuccess: refresh,
  });
}
