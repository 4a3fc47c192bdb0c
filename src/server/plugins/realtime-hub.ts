import type pg from 'pg';

// Live events for signed-in people (issue 5): a socket subscribes for its user; a feature publishes
// to users. In one process the hub hands events over directly; on PostgreSQL every instance LISTENs
// on one channel and NOTIFY carries each event to all of them, so two people connected to different
// instances still meet (ARCHITECTURE §1).

export interface RealtimeEvent {
  type: string;
  [key: string]: unknown;
}

type Handler = (event: RealtimeEvent) => void;

export interface RealtimeHub {
  subscribe(userId: string, handler: Handler): () => void;
  publish(userIds: string[], event: RealtimeEvent): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'campusloop_events';

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

  deliver(userIds: string[], event: RealtimeEvent) {
    for (const userId of new Set(userIds)) {
      for (const handler of this.handlers.get(userId) ?? []) handler(event);
    }
  }
}

export function createInProcessHub(): RealtimeHub {
  const local = new LocalDelivery();
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    publish: async (userIds, event) => local.deliver(userIds, event),
    close: async () => {},
  };
}

/** Fan-out through PostgreSQL LISTEN/NOTIFY on a dedicated connection of the pool. */
export async function createPostgresHub(pool: pg.Pool): Promise<RealtimeHub> {
  const local = new LocalDelivery();
  const listener = await pool.connect();
  listener.on('notification', (message) => {
    if (message.channel !== CHANNEL || !message.payload) return;
    try {
      const { userIds, event } = JSON.parse(message.payload) as { userIds: string[]; event: RealtimeEvent };
      local.deliver(userIds, event);
    } catch {
      // Not ours: ignore.
    }
  });
  await listener.query(`listen ${CHANNEL}`);
  return {
    subscribe: (userId, handler) => local.subscribe(userId, handler),
    publish: async (userIds, event) => {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ userIds, event })]);
    },
    close: async () => {
      await listener.query(`unlisten ${CHANNEL}`).catch(() => {});
      listener.release();
    },
  };
}
