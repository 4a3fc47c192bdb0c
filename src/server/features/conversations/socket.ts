import websocket from '@fastify/websocket';
import { msg } from '@lingui/core/macro';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { dropAfterMessage, type ReadCaches } from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import { accountRefusal } from '../../db/account-gone.ts';
import type { Db } from '../../db/client.ts';
import type { RealtimeHub } from '../../db/realtime-hub.ts';
import { AppError, notFound } from '../../errors.ts';
import session from '../../http/session.ts';
import { requestLocale, translate } from '../../i18n.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { liveSessions, resumeSession, sessionId } from '../auth/service.ts';
import type { ChatSendLimit } from './send-limit.ts';
import { conversationService } from './service.ts';

// The live channel of spec §7: WebSocket /ws, authenticated by the session cookie at the upgrade.
// In: {type:"auth", userId} (accepted only when it is the session's user) and
// {type:"sendMessage", conversationId, content, tempId}. Out: messageConfirm to the sending socket,
// newMessage to every socket of both people (the sender's other tabs included), and errors. The same
// socket carries the live events of realtime-hub.ts: notification, notificationCount, chatUnreadCount,
// and resync (live events may have been missed: fetch afresh).

/**
 * Close codes in the 4400 range, so clients can tell our refusals apart; 1012 (service restart) when
 * the server cannot tell whether the session still stands: the client reconnects, and the upgrade checks.
 */
export const CLOSE = { unauthorised: 4401, impersonation: 4403, malformed: 4400, reconnect: 1012 } as const;

function send(socket: WebSocket, payload: unknown) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
}

export async function chatSocket(
  app: FastifyInstance,
  opts: {
    db: Db;
    config: Config;
    hub: RealtimeHub;
    caches: ReadCaches;
    sendLimit: ChatSendLimit;
    /** Told how many sockets are open (GET /metrics), when metrics are on. */
    metrics?: Metrics;
  },
) {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  await app.register(session, {
    resume: (token) => resumeSession(opts.db, token, opts.config, new Date(), opts.caches.sessions),
    config: opts.config,
    caches: opts.caches,
    hub: opts.hub,
  });

  const alive = new WeakMap<WebSocket, boolean>();
  /** Every open socket, with the session it was opened with (as sessionId names it). */
  const sockets = new Map<WebSocket, string>();
  const heartbeat = setInterval(() => {
    for (const socket of sockets.keys()) {
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

  // Decision 037: while the hub was down, a session may have ended (signed out, suspended, deleted)
  // without its `sessionEnded` reaching this instance. Once the hub hears again, one query per few
  // hundred sockets finds the sessions gone, and their sockets close as if they had heard it. If the
  // database cannot say (asked a few times: the outage that ended may still be cutting connections),
  // every socket closes with 1012: the browser reconnects and the upgrade checks.
  const closeEndedSessions = async () => {
    const open = [...sockets];
    const sessions = [...new Set(open.map(([, session]) => session))];
    let live: Set<string> | undefined;
    for (let attempt = 1; !live; attempt++) {
      try {
        live = await liveSessions(opts.db, sessions);
      } catch (error) {
        if (attempt < 5) {
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
          continue;
        }
        app.log.warn({ err: error }, 'live events: could not check the open sockets’ sessions; closing them');
        for (const [socket] of open) socket.close(CLOSE.reconnect, 'Reconnect');
        return;
      }
    }
    for (const [socket, session] of open)
      if (!live.has(session)) socket.close(CLOSE.unauthorised, 'Signed out');
  };
  const stopWatching = opts.hub.observeStatus((status) => {
    if (status === 'up') void closeEndedSessions();
  });
  app.addHook('onClose', async () => stopWatching());

  app.get('/ws', { websocket: true, config: { rateLimit: false, longLived: true } }, (socket, request) => {
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
    const token = request.sessionToken;
    if (!user || !token) {
      socket.close(CLOSE.unauthorised, 'Sign in to chat');
      return;
    }
    // What this socket says to its person is written in the language they connected in.
    const locale = requestLocale(request);
    // The session this socket was opened with: signing out of it closes this socket only, on every
    // instance (migration 0009); the person's other devices stay connected.
    const ownSession = sessionId(token);
    sockets.set(socket, ownSession);
    opts.metrics?.socketsOpen(sockets.size);
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    let ended = false;
    const unsubscribe = opts.hub.subscribe(user.id, (event) => {
      if (event.type === 'sessionEnded') {
        // Without a session named, every session of the person ended (a moderator suspended them).
        if (event.session !== undefined && event.session !== ownSession) return;
        ended = true;
        socket.close(CLOSE.unauthorised, 'Signed out');
      } else send(socket, event);
    });

    /**
     * Whether the socket's session still stands, asked before acting on each message (decision 037): a
     * `sessionEnded` missed while the hub was down must not leave a signed-out socket able to send. The
     * sessions cache answers most of these; it holds nothing while the hub is down, so then the database does.
     */
    const sessionStands = async () => {
      const resumed = await resumeSession(opts.db, token, opts.config, new Date(), opts.caches.sessions);
      if (resumed?.user.id === user.id) return true;
      ended = true;
      socket.close(CLOSE.unauthorised, 'Signed out');
      return false;
    };

    const handle = async (raw: unknown) => {
      if (ended) return;
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
      let stands: boolean;
      try {
        stands = await sessionStands();
      } catch (error) {
        request.log.warn({ err: error }, 'chat socket: could not check the session');
        const tempId = typeof data.tempId === 'string' ? data.tempId.slice(0, 100) : undefined;
        send(socket, {
          type: 'error',
          tempId,
          message: translate(locale, msg`The message could not be sent.`),
        });
        return;
      }
      if (!stands) return;
      if (data.type === 'auth') {
        if (data.userId !== user.id) socket.close(CLOSE.impersonation, 'That is not you');
        else send(socket, { type: 'authenticated', userId: user.id });
        return;
      }
      if (data.type !== 'sendMessage') {
        send(socket, { type: 'error', message: translate(locale, msg`Unknown message type.`) });
        return;
      }
      const tempId = typeof data.tempId === 'string' ? data.tempId.slice(0, 100) : undefined;
      try {
        // One budget per person across HTTP and all their sockets.
        const conversationId = data.conversationId;
        if (typeof conversationId !== 'string') throw notFound(msg`Conversation not found.`);
        const { message, recipientId } = await opts.sendLimit.take(user.id, () =>
          conversationService.sendMessage(opts.db, user.id, conversationId, data.content, locale),
        );
        dropAfterMessage(opts.caches, recipientId);
        // Stored first, then confirmed. Both people's sockets, on whichever instance, get
        // newMessage from the database's NOTIFY at commit (migration 0006_live_events).
        send(socket, { type: 'messageConfirm', message, conversationId: message.conversationId, tempId });
      } catch (thrown) {
        const error = accountRefusal(thrown) ?? thrown;
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'chat message failed');
        const message = translate(
          locale,
          error instanceof AppError ? error.userMessage : msg`The message could not be sent.`,
        );
        send(socket, { type: 'error', tempId, message });
      }
    };

    // One message at a time, in the order they came: a burst is stored, confirmed and
    // numbered in the order it was typed, never as concurrent inserts happen to commit.
    let queue = Promise.resolve();
    socket.on('message', (raw) => {
      queue = queue
        .then(() => handle(raw))
        .catch((error) => request.log.error({ err: error }, 'chat socket message failed'));
    });

    socket.on('close', () => {
      sockets.delete(socket);
      opts.metrics?.socketsOpen(sockets.size);
      unsubscribe();
    });
  });
}
