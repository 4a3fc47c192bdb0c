import type pg from 'pg';
import type { EmbeddedClient } from './embedded-client.ts';

// Live events for signed-in people. The database announces them: triggers on notifications
// and messages (migration 0006_live_events) call pg_notify on one channel, which PostgreSQL delivers
// when the writing transaction commits. Every server instance LISTENs on that channel and hands each
// event to the sockets of the people it names, so two people connected to different instances still
// meet, and no feature has to remember to publish after its commit.

export interface RealtimeEvent {
  type: string;
  [key: string]: unknown;
}

type Handler = (event: RealtimeEvent) => void;
/** Hears every live event, for whomever it is (the read caches drop those people's unread answers). */
export type EventObserver = (userIds: string[], event: RealtimeEvent) => void;
/**
 * Hears what a committed statement changed, as the tags migration 0011 announces (`item:<id>`,
 * `list:<campus>`, `all`…): the read caches drop the answers carrying them.
 */
export type ChangeObserver = (tags: string[]) => void;
/**
 * Hears the hub go down (its connection to the database is lost: announcements may be missed) and come
 * back up (listening again). The read caches stop serving while it is down and start empty after.
 */
export type StatusObserver = (status: HubStatus) => void;
export type HubStatus = 'up' | 'down';

export interface RealtimeHub {
  subscribe(userId: string, handler: Handler): () => void;
  /** Observers run before the event reaches anyone's socket, so a page that refetches on it is fresh. */
  observeEvents(observer: EventObserver): () => void;
  observeChanges(observer: ChangeObserver): () => void;
  /**
   * Resolves once every change committed before the call has reached the change observers of this
   * instance (true), or false if that cannot be known now (the hub is down, or too slow): a request
   * that wrote waits for it before answering, so the next read anyone makes here is fresh.
   */
  caughtUp(): Promise<boolean>;
  /** Status observers run before the sockets are told to resync, for the same reason. */
  observeStatus(observer: StatusObserver): () => void;
  /** Whether the hub hears the database's announcements now (GET /api/ready). */
  readonly status: HubStatus;
  close(): Promise<void>;
}

export const LIVE_EVENTS_CHANNEL = 'campusloop_events';
/** Changes for the read caches: the payload is the tags of what changed, space-separated. */
export const CACHE_CHANNEL = 'campusloop_cache';
/** Sent to every socket when the hub is back after a gap: anything may have changed unannounced. */
export const RESYNC_EVENT: RealtimeEvent = { type: 'resync' };

class LocalDelivery {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly eventObservers = new Set<EventObserver>();
  private readonly changeObservers = new Set<ChangeObserver>();
  /** Marks this instance sent after a commit, waiting to come back through the channel. */
  private readonly marks = new Map<string, () => void>();
  private nextMark = 0;
  private readonly statusObservers = new Set<StatusObserver>();
  status: HubStatus = 'up';

  observeStatus(observer: StatusObserver) {
    this.statusObservers.add(observer);
    return () => void this.statusObservers.delete(observer);
  }

  setStatus(status: HubStatus) {
    if (status === this.status) return;
    this.status = status;
    for (const observer of this.statusObservers) observer(status);
    // Whatever was announced during the gap is lost: every open page fetches afresh.
    if (status === 'up') this.broadcast(RESYNC_EVENT);
  }

  /** To every socket of everyone. */
  broadcast(event: RealtimeEvent) {
    for (const set of this.handlers.values()) for (const handler of set) handler(event);
  }

  observeEvents(observer: EventObserver) {
    this.eventObservers.add(observer);
    return () => void this.eventObservers.delete(observer);
  }

  observeChanges(observer: ChangeObserver) {
    this.changeObservers.add(observer);
    return () => void this.changeObservers.delete(observer);
  }

  /** A payload on the cache channel: tags from a trigger, or one of our marks coming back. */
  changed(payload: string | undefined) {
    if (!payload) return;
    if (payload.startsWith(MARK_PREFIX)) {
      const arrived = this.marks.get(payload);
      this.marks.delete(payload);
      arrived?.();
      return;
    }
    const tags = payload.split(' ').filter(Boolean);
    for (const observer of this.changeObservers) observer(tags);
  }

  /**
   * Sends a mark through the channel with `send` and waits for it to come back. PostgreSQL delivers
   * notifications in commit order, so when the mark arrives, every change committed before it was sent
   * has been heard. Waits at most `timeoutMs`.
   */
  async caughtUp(send: (payload: string) => Promise<unknown>, timeoutMs: number): Promise<boolean> {
    if (this.status === 'down') return false;
    const mark = `${MARK_PREFIX}${process.pid}:${++this.nextMark}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.marks.set(mark, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await send(mark);
      return await arrived;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.marks.delete(mark);
    }
  }

  subscribe(userId: string, handler: Handler) {
    let set = this.handlers.get(userId);
    if (!set) {
      set = new Set();
      this.handlers.set(userId, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(userId);
    };
  }

  /** A payload as the triggers write it: {"userIds": [...], "event": {...}}. */
  deliverPayload(payload: string | undefined) {
    if (!payload) return;
    let parsed: { userIds?: unknown; event?: unknown };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return; // Not ours: ignore.
    }
    const { userIds, event } = parsed;
    if (!Array.isArray(userIds) || typeof event !== 'object' || event === null) return;
    const people = [...new Set(userIds)].filter((id): id is string => typeof id === 'string');
    for (const observer of this.eventObservers) observer(people, event as RealtimeEvent);
    for (const userId of people) {
      for (const handler of this.handlers.get(userId) ?? []) handler(event as RealtimeEvent);
    }
  }
}

/** How a mark sent by caughtUp() starts: never a tag. */
const MARK_PREFIX = 'mark:';
/** Beyond this, a write answers without waiting, and its writer's instance empties its caches. */
const CAUGHT_UP_TIMEOUT_MS = 2000;

/** Reconnection waits: 100 ms, doubling to at most 5 s, each with random jitter. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5000;

export interface HubLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * PostgreSQL: a connection of its own (outside the pool, so requests never wait for it) LISTENs for
 * the whole process. When it is lost (the server restarts or fails over, an administrator terminates
 * it, the network drops), the hub is down: it reconnects with growing waits and LISTENs again, and
 * then tells every observer and socket that announcements may have been missed. It never throws
 * after the first connection, and no error of its connection reaches the process.
 */
export async function createPostgresHub(
  newClient: () => pg.Client,
  log: HubLog,
  /** Runs a statement on the pool (a connection other than the listener's). */
  query: (text: string, values: unknown[]) => Promise<unknown>,
): Promise<RealtimeHub> {
  const local = new LocalDelivery();
  let listener: pg.Client | undefined;
  let closed = false;
  let attempts = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const lost = (client: pg.Client, error?: Error) => {
    if (client !== listener || closed) return;
    listener = undefined;
    client.end().catch(() => {});
    log.warn({ err: error }, 'live events: lost the database connection; reconnecting');
    local.setStatus('down');
    reconnectLater();
  };

  /** Connects and LISTENs; answers the connection, which may already be lost again by then. */
  const connect = async (): Promise<pg.Client> => {
    const client = newClient();
    // Errors of a connection being set up come back from connect(); this listener is for later ones.
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      if (message.channel === LIVE_EVENTS_CHANNEL) local.deliverPayload(message.payload);
      else if (message.channel === CACHE_CHANNEL) local.changed(message.payload);
    });
    try {
      await client.connect();
      listener = client;
      await client.query(`listen ${LIVE_EVENTS_CHANNEL}; listen ${CACHE_CHANNEL}`);
    } catch (error) {
      if (listener === client) listener = undefined;
      client.end().catch(() => {});
      throw error;
    }
    if (closed) await client.end().catch(() => {});
    return client;
  };

  const reconnectLater = () => {
    if (closed || retry) return;
    const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempts);
    attempts++;
    retry = setTimeout(
      () => {
        retry = undefined;
        connect().then(
          (client) => {
            // Lost again before we got here: the next attempt is already on its way.
            if (closed || listener !== client) return;
            log.info({ attempts }, 'live events: listening again');
            attempts = 0;
            local.setStatus('up');
          },
          (error: Error) => {
            log.warn({ err: error }, 'live events: reconnecting failed; trying again');
            reconnectLater();
          },
        );
      },
      ceiling / 2 + Math.random() * (ceiling / 2),
    );
  };

  await connect();
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    observeEvents: (observer) => local.observeEvents(observer),
    observeChanges: (observer) => local.observeChanges(observer),
    caughtUp: () =>
      local.caughtUp(
        (mark) => query('select pg_notify($1, $2)', [CACHE_CHANNEL, mark]),
        CAUGHT_UP_TIMEOUT_MS,
      ),
    observeStatus: (observer) => local.observeStatus(observer),
    get status() {
      return local.status;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      if (client) await client.end().catch(() => {});
    },
  };
}

/** The embedded database: one process, one PGlite, which hears its own NOTIFYs at commit. */
export async function createEmbeddedHub(pglite: EmbeddedClient): Promise<RealtimeHub> {
  const local = new LocalDelivery();
  const unlistenEvents = await pglite.listen(LIVE_EVENTS_CHANNEL, (payload) => local.deliverPayload(payload));
  const unlistenTables = await pglite.listen(CACHE_CHANNEL, (payload) => local.changed(payload));
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    observeEvents: (observer) => local.observeEvents(observer),
    observeChanges: (observer) => local.observeChanges(observer),
    caughtUp: () =>
      local.caughtUp(
        (mark) => pglite.query('select pg_notify($1, $2)', [CACHE_CHANNEL, mark]),
        CAUGHT_UP_TIMEOUT_MS,
      ),
    // The embedded database lives in this process: its announcements cannot be lost.
    observeStatus: () => () => {},
    status: 'up',
    close: async () => {
      if (pglite.closed) return;
      await unlistenEvents().catch(() => {});
      await unlistenTables().catch(() => {});
    },
  };
}
