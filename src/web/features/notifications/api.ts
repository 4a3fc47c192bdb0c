import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/schemas/notifications.ts';
import { api } from '../../lib/api.ts';
import { notificationKeys } from '../../lib/query-keys.ts';

// Spec §7/§9: both lists are polled every 30 s while someone is signed in.
const POLL_MS = 30_000;

export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.all,
    queryFn: async () =>
      (await api.get<{ notifications: Notification[] }>('/api/notifications')).notifications,
    refetchInterval: POLL_MS,
    enabled,
  });
}

export function useUnreadNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: async () =>
      (await api.get<{ notifications: Notification[] }>('/api/notifications/unread')).notifications,
    refetchInterval: POLL_MS,
    enabled,
  });
}

function useRefreshNotifications() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
  };
}

/** Spec §8: a failed mark-as-read shows nothing to the user; the next poll sets the record straight. */
export function useMarkRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (id: string) => api.post(`/api/notifications/${id}/read`),
    onSettled: refresh,
  });
}

export function useMarkAllRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: () => api.post<{ success: true; count: number }>('/api/notifications/read-all'),
    onSettled: refresh,
  });
}
