import { t } from '@lingui/core/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ConversationSummary, Message } from '#shared/schemas/chat.ts';
import { api } from '../../lib/api.ts';

// Spec §7/§9: the conversation list is polled every 30 s, the unread count every 10 s.
const CONVERSATIONS_POLL_MS = 30_000;
const UNREAD_POLL_MS = 10_000;

export const chatKeys = {
  conversations: ['/api/conversations'] as const,
  unreadCount: ['/api/conversations/unread-count'] as const,
  messages: (id: string) => ['/api/conversations', id, 'messages'] as const,
};

export interface MessagesPage {
  messages: Message[];
  hasMore: boolean;
}

export function useConversations(enabled = true) {
  return useQuery({
    queryKey: chatKeys.conversations,
    queryFn: async () =>
      (await api.get<{ conversations: ConversationSummary[] }>('/api/conversations')).conversations,
    refetchInterval: CONVERSATIONS_POLL_MS,
    enabled,
  });
}

export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: chatKeys.unreadCount,
    queryFn: async () => (await api.get<{ count: number }>('/api/conversations/unread-count')).count,
    refetchInterval: UNREAD_POLL_MS,
    enabled,
  });
}

/** One page of a conversation's messages, oldest first; `before` (the oldest message's id) loads older ones. */
export function fetchMessages(conversationId: string, before?: string): Promise<MessagesPage> {
  const query = new URLSearchParams();
  if (before) query.set('before', before);
  const suffix = query.size ? `?${query}` : '';
  return api.get<MessagesPage>(`/api/conversations/${conversationId}/messages${suffix}`);
}

/** Marks the other person's messages in an open conversation read (one that arrived live). */
export function markConversationRead(conversationId: string): Promise<unknown> {
  return api.post(`/api/conversations/${conversationId}/read`);
}

/** The newest page of a conversation, fetched afresh each time it is opened (the server marks it read). */
export function useMessages(conversationId: string | null) {
  return useQuery({
    queryKey: chatKeys.messages(conversationId ?? ''),
    queryFn: () => fetchMessages(conversationId ?? ''),
    enabled: Boolean(conversationId),
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
  });
}

/** Refetches the list and the unread badge (after reading or receiving messages). */
export function useRefreshConversations() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: chatKeys.conversations, exact: true });
    void queryClient.invalidateQueries({ queryKey: chatKeys.unreadCount });
  }, [queryClient]);
}

export function useStartConversation() {
  const refresh = useRefreshConversations();
  return useMutation({
    mutationFn: async (itemId: string) =>
      (await api.post<{ conversation: ConversationSummary }>('/api/conversations', { itemId })).conversation,
    onSuccess: refresh,
  });
}

/**
 * 'Message {name}' on a reservation card: the chat of its borrower and lender about the item, opened by
 * either of them, so they can settle the next step without hunting for each other.
 */
export function useStartReservationConversation() {
  const refresh = useRefreshConversations();
  return useMutation({
    mutationFn: async (reservationId: string) =>
      (
        await api.post<{ conversation: ConversationSummary }>(
          `/api/reservations/${encodeURIComponent(reservationId)}/conversation`,
        )
      ).conversation,
    onSuccess: refresh,
  });
}

/** Spec §2 Chat: full name, else username, else 'Unknown User'. */
export function otherUserName(conversation: ConversationSummary): string {
  return conversation.otherUser.fullName.trim() || conversation.otherUser.username.trim() || t`Unknown User`;
}

export function itemTitle(conversation: ConversationSummary): string {
  return conversation.item?.title ?? t`Item not found`;
}
