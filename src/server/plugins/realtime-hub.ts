import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

// Live events for signed-in people (issue 5). The database announces them: triggers on notifications
// and messages (migration 0006_live_events) call pg_notify on one channel, which PostgreSQL delivers
// when the writing transaction commits. Every server instance LISTENs on that channel and hands each
// event to the sockets of the people it names, so two people connected to different instances still
// meet (ARCHITECTURE §1), and no feature has to remember to publish after its commit.

export interface RealtimeEvent {
  type: string;
  [key: string]: unknown;
}

type Handler = (event: RealtimeEvent) => void;
/** Hears every live event, for whomever it is (the read caches drop those people's unread answers). */
export type EventObserver = (userIds: string[], event: RealtimeEvent) => void;
/** Hears the name of every table a committed transaction changed (migration 0008). */
export type TableObserver = (table: string) => void;

export interface RealtimeHub {
  subscribe(userId: string, handler: Handler): () => void;
  /** Observers run before the event reaches anyone's socket, so a page that refetches on it is fresh. */
  observeEvents(observer: EventObserver): () => void;
  observeTables(observer: TableObserver): () => void;
  close(): Promise<void>;
}

export const LIVE_EVENTS_CHANNEL = 'campusloop_events';
/** Table changes for the read caches: the payload is the table's name. */
export const CACHE_CHANNEL = 'campusloop_cache';

class LocalDelivery {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly eventObservers = new Set<EventObserver>();
  private readonly tableObservers = new Set<TableObserver>();

  observeEvents(observer: EventObserver) {
    this.eventObservers.add(observer);
    return () => void this.eventObservers.delete(observer);
  }

  observeTables(observer: TableObserver) {
    this.tableObservers.add(observer);
    return () => void this.tableObservers.delete(observer);
  }

  tableChanged(table: string | undefined) {
    if (!table) return;
    for (const observer of this.tableObservers) observer(table);
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

/** PostgreSQL: a dedicated connection of the pool LISTENs for the whole process. */
export async function createPostgresHub(pool: pg.Pool): Promise<RealtimeHub> {
  const local = new LocalDelivery();
  const listener = await pool.connect();
  listener.on('notification', (message) => {
    if (message.channel === LIVE_EVENTS_CHANNEL) local.deliverPayload(message.payload);
    else if (message.channel === CACHE_CHANNEL) local.tableChanged(message.payload);
  });
  await listener.query(`listen ${LIVE_EVENTS_CHANNEL}; listen ${CACHE_CHANNEL}`);
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    observeEvents: (observer) => local.observeEvents(observer),
    observeTables: (observer) => local.observeTables(observer),
    close: async () => {
      await listener.query('unlisten *').catch(() => {});
      listener.release();
    },
  };
}

/** The embedded database: one process, one PGlite, which hears its own NOTIFYs at commit. */
export async function createEmbeddedHub(pglite: PGlite): Promise<RealtimeHub> {
  const local = new LocalDelivery();
  const unlistenEvents = await pglite.listen(LIVE_EVENTS_CHANNEL, (payload) => local.deliverPayload(payload));
  const unlistenTables = await pglite.listen(CACHE_CHANNEL, (payload) => local.tableChanged(payload));
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    observeEvents: (observer) => local.observeEvents(observer),
    observeTables: (observer) => local.observeTables(observer),
    close: async () => {
      if (pglite.closed) return;
      await unlistenEvents().catch(() => {});
      await unlistenTables().catch(() => {});
    },
  };
}
