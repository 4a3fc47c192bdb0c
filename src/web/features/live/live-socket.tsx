import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { useChatSocket } from '../../lib/chat-socket.ts';
import { notificationKeys, reservationListKey } from '../../lib/query-keys.ts';
import { sessionKey, useSession } from '../auth/api.ts';
import { chatKeys } from '../chat/api.ts';

// One live socket for the whole app while someone is signed in: the chat page sends and
// receives messages on it, and the header's badges hear of new notifications and unread counts the
// moment the server commits them. The spec's polling stays underneath as the fallback.

type LiveSocket = ReturnType<typeof useChatSocket>;

const LiveSocketContext = createContext<LiveSocket | null>(null);

export function LiveSocketProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const live = useChatSocket(user ?? null);
  const queryClient = useQueryClient();
  const { subscribe } = live;

  useEffect(
    () =>
      subscribe((event) => {
        switch (event.type) {
          case 'notification':
          case 'notificationCount':
            // The lists carry the read marks the dropdown and page show; fetch them afresh.
            void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
            void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
            // A notice about a reservation means it changed (approved, a new pickup code): My
            // Reservations shows it without a reload.
            if (
              (event as { notification?: { relatedReservationId?: string | null } }).notification
                ?.relatedReservationId
            )
              void queryClient.invalidateQueries({ queryKey: reservationListKey });
            break;
          case 'chatUnreadCount':
            queryClient.setQueryData(chatKeys.unreadCount, event.count);
            break;
          case 'newMessage':
            void queryClient.invalidateQueries({ queryKey: chatKeys.conversations, exact: true });
            break;
          case 'resync':
            // Pushes may have been missed: no answer from before the gap may stay.
            void queryClient.invalidateQueries();
            break;
          case 'sessionEnded':
            // Signed out in another tab, or suspended: ask who is signed in, so the app shows it.
            void queryClient.invalidateQueries({ queryKey: sessionKey });
            break;
        }
      }),
    [subscribe, queryClient],
  );

  return <LiveSocketContext.Provider value={live}>{children}</LiveSocketContext.Provider>;
}

export function useLiveSocket(): LiveSocket {
  const live = useContext(LiveSocketContext);
  if (!live) throw new Error('useLiveSocket needs a LiveSocketProvider above it.');
  return live;
}
