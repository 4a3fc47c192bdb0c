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

export interface RealtimeHub {
  subscribe(userId: string, handler: Handler): () => void;
  close(): Promise<void>;
}

export const LIVE_EVENTS_CHANNEL = 'campusloop_events';

class LocalDelivery {
  private readonly handlers = new Map<string, Set<Handler>>();

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
    for (const userId of new Set(userIds)) {
      if (typeof userId !== 'string') continue;
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
  });
  await listener.query(`listen ${LIVE_EVENTS_CHANNEL}`);
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    close: async () => {
      await listener.query(`unlisten ${LIVE_EVENTS_CHANNEL}`).catch(() => {});
      listener.release();
    },
  };
}

/** The embedded database: one process, one PGlite, which hears its own NOTIFYs at commit. */
export async function createEmbeddedHub(pglite: PGlite): Promise<RealtimeHub> {
  const local = new LocalDelivery();
  const unlisten = await pglite.listen(LIVE_EVENTS_CHANNEL, (payload) => local.deliverPayload(payload));
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    close: async () => {
      if (!pglite.closed) await unlisten().catch(() => {});
    },
  };
}
