import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../../../tests/helpers/fake-socket.ts';
import { notificationKeys } from '../../lib/query-keys.ts';
import { sessionKey } from '../auth/api.ts';
import { chatKeys } from '../chat/api.ts';
import { LiveSocketProvider, useLiveSocket } from './live-socket.tsx';

// The app-wide socket turns the server's live events into fresh badges without waiting for a poll.

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionKey, { id: 'user-1', fullName: 'Maya Chen' });
  queryClient.setQueryData(chatKeys.unreadCount, 0);
  queryClient.setQueryData(notificationKeys.unread, []);
  queryClient.setQueryData(chatKeys.conversations, []);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <LiveSocketProvider>{children}</LiveSocketProvider>
    </QueryClientProvider>
  );
  const hook = renderHook(() => useLiveSocket(), { wrapper });
  const socket = FakeSocket.instances[0]!;
  act(() => socket.open());
  return { queryClient, socket, hook };
}

describe('LiveSocketProvider', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              notifications: [],
              conversations: [],
              count: 0,
              user: { id: 'user-1', fullName: 'Maya Chen' },
            }),
          ),
      ),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opens one socket for the signed-in user and shares it', () => {
    const { hook, socket } = setup();
    expect(FakeSocket.instances).toHaveLength(1);
    expect(JSON.parse(socket.sent[0]!)).toEqual({ type: 'auth', userId: 'user-1' });
    expect(hook.result.current.connected).toBe(true);
    hook.unmount();
  });

  it('sets the chat badge from a pushed unread count', () => {
    const { queryClient, socket, hook } = setup();
    act(() => socket.receive({ type: 'chatUnreadCount', count: 3 }));
    expect(queryClient.getQueryData(chatKeys.unreadCount)).toBe(3);
    act(() => socket.receive({ type: 'chatUnreadCount', count: 0 }));
    expect(queryClient.getQueryData(chatKeys.unreadCount)).toBe(0);
    hook.unmount();
  });

  it('refreshes the notification lists on a pushed notification or count, and conversations on a message', () => {
    const { queryClient, socket, hook } = setup();
    act(() =>
      socket.receive({
        type: 'notification',
        unreadCount: 1,
        notification: { id: 'n1', type: 'system', title: 'Hi', message: 'Hello', isRead: false },
      }),
    );
    expect(queryClient.getQueryState(notificationKeys.unread)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(chatKeys.conversations)?.isInvalidated).toBe(false);
    act(() =>
      socket.receive({
        type: 'newMessage',
        conversationId: 'c1',
        message: {
          id: 'm1',
          conversationId: 'c1',
          senderId: 'u2',
          content: 'Hey',
          isRead: false,
          createdAt: '',
        },
      }),
    );
    expect(queryClient.getQueryState(chatKeys.conversations)?.isInvalidated).toBe(true);
    hook.unmount();
  });

  it('fetches everything afresh when the server says live events may have been missed', () => {
    const { queryClient, socket, hook } = setup();
    act(() => socket.receive({ type: 'resync' }));
    for (const key of [chatKeys.unreadCount, chatKeys.conversations, notificationKeys.unread, sessionKey])
      expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    hook.unmount();
  });

  it('fetches everything afresh after reconnecting, since pushes were lost meanwhile', () => {
    vi.useFakeTimers();
    try {
      const { queryClient, socket, hook } = setup();
      expect(queryClient.getQueryState(chatKeys.unreadCount)?.isInvalidated).toBe(false);
      act(() => socket.drop(1006));
      act(() => vi.advanceTimersByTime(3000));
      act(() => FakeSocket.instances[1]!.open());
      expect(queryClient.getQueryState(chatKeys.unreadCount)?.isInvalidated).toBe(true);
      hook.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks who is signed in when the server closes the socket because its session ended', () => {
    const { queryClient, socket, hook } = setup();
    act(() => socket.drop(4401));
    expect(queryClient.getQueryState(sessionKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(chatKeys.unreadCount)?.isInvalidated).toBe(false);
    hook.unmount();
  });
});
