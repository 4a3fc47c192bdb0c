import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublicUser } from '#shared/schemas/auth.ts';
import type { Message } from '#shared/schemas/chat.ts';
import type { Notification } from '#shared/schemas/notifications.ts';

// Spec §4 Live chat connection, §7 WebSocket, §9 reconnect delay: one socket to /ws while someone is
// signed in; auth on open; a retry 3000 ms after any close but a normal one; closed on sign-out/unmount.
// Besides chat it carries the live notification and unread-count events (features/live).

export const RECONNECT_DELAY_MS = 3000;
const NORMAL_CLOSE = 1000;
/** The server's close code for a socket whose session is gone (server: features/conversations/socket.ts). */
const SESSION_ENDED_CLOSE = 4401;

export type ChatEvent =
  | { type: 'messageConfirm'; message: Message; conversationId: string; tempId?: string }
  | { type: 'newMessage'; message: Message; conversationId: string }
  | { type: 'error'; message: string; tempId?: string }
  | { type: 'authenticated'; userId: string }
  | { type: 'notification'; notification: Notification; unreadCount: number }
  | { type: 'notificationCount'; unreadCount: number }
  | { type: 'chatUnreadCount'; count: number }
  /**
   * Live events may have been missed: the server's connection to the database was lost for a while,
   * or this socket reconnected (the client says so itself then). Everything shown is fetched afresh.
   */
  | { type: 'resync' }
  /** The server closed the socket because its session ended (signed out here or elsewhere, suspended). */
  | { type: 'sessionEnded' };

export type ChatListener = (event: ChatEvent) => void;

/** A temporary message id (spec §5: it starts with 'temp-'). */
export function tempMessageId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : Math.random().toString(36).slice(2);
  return `temp-${random}`;
}

function socketUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${window.location.host}/ws`;
}

function isChatEvent(value: unknown): value is ChatEvent {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

export function useChatSocket(user: Pick<PublicUser, 'id'> | null) {
  const [connected, setConnected] = useState(false);
  const socketRef = useRef<WebSocket | null>(null);
  const listenersRef = useRef(new Set<ChatListener>());
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!userId) return;
    let active = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let opened = false;
    const emit = (event: ChatEvent) => {
      for (const listener of listenersRef.current) listener(event);
    };

    const connect = () => {
      const socket = new WebSocket(socketUrl());
      socketRef.current = socket;
      socket.addEventListener('open', () => {
        if (!active) return;
        socket.send(JSON.stringify({ type: 'auth', userId }));
        setConnected(true);
        // Back after a drop: whatever was pushed meanwhile never arrived.
        if (opened) emit({ type: 'resync' });
        opened = true;
      });
      socket.addEventListener('message', (event) => {
        let data: unknown;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (!isChatEvent(data)) return;
        emit(data);
      });
      socket.addEventListener('close', (event) => {
        if (socketRef.current === socket) socketRef.current = null;
        if (!active) return;
        setConnected(false);
        if (event.code === SESSION_ENDED_CLOSE) emit({ type: 'sessionEnded' });
        if (event.code !== NORMAL_CLOSE) retry = setTimeout(connect, RECONNECT_DELAY_MS);
      });
    };
    connect();

    return () => {
      active = false;
      clearTimeout(retry);
      const socket = socketRef.current;
      socketRef.current = null;
      if (socket && socket.readyState !== WebSocket.CLOSED) socket.close(NORMAL_CLOSE, 'Leaving chat');
      setConnected(false);
    };
  }, [userId]);

  /** Sends a message; returns its temporary id, or false (with a console error, spec §8) when offline. */
  const send = useCallback(
    (conversationId: string, content: string, tempId: string = tempMessageId()): string | false => {
      const socket = socketRef.current;
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        console.error('Chat connection is not open; the message was not sent.');
        return false;
      }
      socket.send(JSON.stringify({ type: 'sendMessage', conversationId, content, tempId }));
      return tempId;
    },
    [],
  );

  /** Receives every server event until the returned function is called. */
  const subscribe = useCallback((listener: ChatListener) => {
    listenersRef.current.add(listener);
    return () => {
      listenersRef.current.delete(listener);
    };
  }, []);

  return { connected, send, subscribe };
}
