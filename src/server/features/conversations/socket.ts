import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { ReadCaches } from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { RealtimeHub } from '../../plugins/realtime-hub.ts';
import session from '../../plugins/session.ts';
import { conversationService } from './service.ts';

// The live channel of spec §7: WebSocket /ws, authenticated by the session cookie at the upgrade.
// In: {type:"auth", userId} (accepted only when it is the session's user) and
// {type:"sendMessage", conversationId, content, tempId}. Out: messageConfirm to the sending socket,
// newMessage to every socket of both people (the sender's other tabs included), and errors. The same
// socket carries the live events of realtime-hub.ts: notification, notificationCount, chatUnreadCount.

/** Close codes in the 4400 range, so clients can tell our refusals apart. */
export const CLOSE = { unauthorised: 4401, impersonation: 4403, malformed: 4400 } as const;

/** Messages a user may send per window before the socket is told to slow down. */
const RATE = { max: 20, windowMs: 10_000 };

function send(socket: WebSocket, payload: unknown) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
}

export async function chatSocket(
  app: FastifyInstance,
  opts: { db: Db; config: Config; hub: RealtimeHub; caches: ReadCaches },
) {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  await app.register(session, { db: opts.db, config: opts.config, caches: opts.caches });

  const alive = new WeakMap<WebSocket, boolean>();
  const sockets = new Set<WebSocket>();
  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      // A socket that did not answer the last ping is gone (phone asleep, network lost).
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, opts.config.wsHeartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  app.get('/ws', { websocket: true, config: { rateLimit: false } }, (socket, request) => {
    const user = request.user;
    // Another site's page must not chat as our user (cross-site WebSocket hijacking).
    const origin = request.headers.origin;
    if (
      origin &&
      origin !== `${request.protocol}://${request.host}` &&
      !opts.config.appOrigins.includes(origin)
    ) {
      socket.close(CLOSE.impersonation, 'Cross-origin connection refused');
      return;
    }
    if (!user) {
      socket.close(CLOSE.unauthorised, 'Sign in to chat');
      return;
    }
    sockets.add(socket);
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    const unsubscribe = opts.hub.subscribe(user.id, (event) => {
      // A moderator suspended this person: their sessions are gone, so their live channel goes too.
      if (event.type === 'sessionEnded') socket.close(CLOSE.unauthorised, 'Signed out');
      else send(socket, event);
    });
    let sent: number[] = [];

    socket.on('message', async (raw) => {
      let data: {
        type?: unknown;
        userId?: unknown;
        conversationId?: unknown;
        content?: unknown;
        tempId?: unknown;
      };
      try {
        data = JSON.parse(String(raw));
        if (typeof data !== 'object' || data === null) throw new Error('not an object');
      } catch {
        socket.close(CLOSE.malformed, 'Malformed message');
        return;
      }
      if (data.type === 'auth') {
        if (data.userId !== user.id) socket.close(CLOSE.impersonation, 'That is not you');
        else send(socket, { type: 'authenticated', userId: user.id });
        return;
      }
      if (data.type !== 'sendMessage') {
        send(socket, { type: 'error', message: 'Unknown message type.' });
        return;
      }
      const tempId = typeof data.tempId === 'string' ? data.tempId.slice(0, 100) : undefined;
      const now = Date.now();
      sent = sent.filter((t) => now - t < RATE.windowMs);
      if (sent.length >= RATE.max) {
        send(socket, {
          type: 'error',
          tempId,
          message: 'You are sending messages too fast. Please wait a moment.',
        });
        return;
      }
      sent.push(now);
      if (typeof data.conversationId !== 'string') {
        send(socket, { type: 'error', tempId, message: 'Conversation not found.' });
        return;
      }
      try {
        const message = await conversationService.sendMessage(
          opts.db,
          user.id,
          data.conversationId,
          data.content,
        );
        // Stored first, then confirmed (issue 5). Both people's sockets, on whichever instance, get
        // newMessage from the database's NOTIFY at commit (migration 0006_live_events).
        send(socket, { type: 'messageConfirm', message, conversationId: message.conversationId, tempId });
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'The message could not be sent.';
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'chat message failed');
        send(socket, { type: 'error', tempId, message });
      }
    });

    socket.on('close', () => {
      sockets.delete(socket);
      unsubscribe();
    });
  });
}
