// The messages between the server and the embedded database's thread (embedded-client.ts sends,
// embedded-thread.ts answers). Everything in them crosses by structured clone.

/** How the thread starts its PGlite. */
export interface EmbeddedStart {
  /** The data directory; in memory without it. */
  dir?: string;
  /** A dump to start from (tests start from a migrated copy). */
  load?: { bytes: ArrayBuffer; type: string };
  /** PostgreSQL's settings, as `-c name=value` pairs. */
  startParams: string[];
  /** Run once before the first statement (the session's settings). */
  setup: string;
}

/** What the server asks of the thread. */
export type EmbeddedAsk =
  | {
      op: 'query';
      text: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      /** Types whose values are answered as PostgreSQL's text (Drizzle's dates, times, intervals). */
      textTypes: number[];
      tx?: number;
      /** Sent by a changing request (or a job): runs before the reads waiting (embedded-thread.ts). */
      first?: boolean;
    }
  | { op: 'exec'; text: string; tx?: number; first?: boolean }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { op: 'memory' }
  | { op: 'close' };

/** An ask with the number its answer comes back under. */
export type EmbeddedRequest = EmbeddedAsk & { id: number };

/** An error, as the thread sends it: PostgreSQL's fields (code, constraint, detail…) kept. */
export interface SentError {
  message: string;
  name: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

export type EmbeddedMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SentError }
  | { op: 'notify'; channel: string; payload: string }
  | { op: 'ready' }
  | { op: 'failed'; error: SentError };
