import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import type { EmbeddedAsk, EmbeddedMessage, EmbeddedStart, SentError } from './embedded-protocol.ts';
import { currentLane } from './lanes.ts';

// The server's side of the embedded database, which runs in a thread of its own (embedded-thread.ts;
// decision 094 has the why and the figures). It answers the part of PGlite's API the app uses: Drizzle's
// queries and transactions, pg-boss's statements, the realtime hub's LISTEN, the backup's dump.

type Row = Record<string, unknown>;
type Params = unknown[] | undefined;
/** The options Drizzle passes: the row mode, and parsers that keep dates and times as text. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** A transaction's statements, run on its connection until it ends. */
export interface EmbeddedTransaction {
  query<T = Row>(text: string, params?: Params, options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
}

/** The embedded database's thread has stopped: an outage to the request (db/unavailable.ts: 08006). */
export class EmbeddedGone extends Error {
  readonly code = '08006';
  constructor(reason: string) {
    super(`The embedded database's thread has stopped (${reason}).`);
    this.name = 'EmbeddedGone';
  }
}

function received(sent: SentError): Error {
  const error = new Error(sent.message);
  error.name = sent.name;
  Object.assign(error, sent.fields);
  if (sent.stack) error.stack = `${sent.stack}\n    (in the embedded database's thread)`;
  return error;
}

/**
 * The thread's code: beside this module's bundle, or (tests, `npm run dev`) its source, which the
 * thread compiles through tsx as the server's own source is.
 */
function threadWorker(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./embedded-thread.js', import.meta.url), options);
  }
  const source = new URL('./embedded-thread.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** A statement of a changing request, or of work outside any request (jobs, the hub): not a read's. */
function first(): boolean {
  const lane = currentLane()?.lane;
  return lane !== 'read' && lane !== 'replica';
}

export class EmbeddedClient {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private gone: EmbeddedGone | undefined;
  private closing = false;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (message: EmbeddedMessage) => this.heard(message));
    worker.on('error', (error) => this.stopped(error.message));
    worker.on('exit', (code) => this.stopped(`exit code ${code}`));
  }

  /** Starts the thread and its PGlite; fails as PGlite.create would. */
  static async start(start: EmbeddedStart): Promise<EmbeddedClient> {
    const worker = threadWorker({
      workerData: start,
      transferList: start.load ? [start.load.bytes] : [],
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: EmbeddedMessage) => {
        if ('op' in message && message.op === 'ready') resolve();
        else if ('op' in message && message.op === 'failed') reject(received(message.error));
        else return;
        worker.off('message', onMessage);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new EmbeddedGone(`exit code ${code} while starting`)));
    });
    try {
      await ready;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return new EmbeddedClient(worker);
  }

  get closed(): boolean {
    return this.closing || this.gone !== undefined;
  }

  query<T = Row>(text: string, params?: Params, options?: QueryOptions): Promise<Results<T>> {
    return this.send<T>(text, params, options);
  }

  exec(text: string): Promise<Results[]> {
    return this.run(text);
  }

  /** Statements without parameters, in a transaction or not (the timing wrappers replace `exec`). */
  private run(text: string, tx?: number) {
    return this.ask({ op: 'exec', text, tx, first: tx === undefined ? first() : undefined }) as Promise<
      Results[]
    >;
  }

  /** A statement, in a transaction or not (the timing wrappers replace `query`, not this). */
  private send<T>(text: string, params: Params, options: QueryOptions | undefined, tx?: number) {
    const extra = Object.keys(options ?? {}).filter((key) => key !== 'rowMode' && key !== 'parsers');
    if (extra.length) {
      return Promise.reject(new Error(`The embedded database's thread cannot take ${extra.join(', ')}`));
    }
    return this.ask({
      op: 'query',
      text,
      params: params ?? [],
      rowMode: options?.rowMode,
      textTypes: Object.keys(options?.parsers ?? {}).map(Number),
      tx,
      first: tx === undefined ? first() : undefined,
    }) as Promise<Results<T>>;
  }

  /** Commits when the callback returns, rolls back when it throws (PGlite's `transaction`). */
  async transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const id = (await this.ask({ op: 'begin' })) as number;
    const tx: EmbeddedTransaction = {
      query: (text, params, options) => this.send(text, params, options, id),
      exec: (text) => this.run(text, id),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await this.ask({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    await this.ask({ op: 'end', tx: id, commit: true });
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let heard = this.listeners.get(channel);
    if (!heard) {
      heard = new Set();
      this.listeners.set(channel, heard);
      await this.ask({ op: 'listen', channel });
    }
    heard.add(callback);
    return async () => {
      const now = this.listeners.get(channel);
      if (!now?.delete(callback) || now.size > 0) return;
      this.listeners.delete(channel);
      if (!this.closed) await this.ask({ op: 'unlisten', channel });
    };
  }

  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    const dump = (await this.ask({ op: 'dump', compression })) as { bytes: ArrayBuffer; type: string };
    return new Blob([dump.bytes], { type: dump.type });
  }

  /** The thread's WebAssembly memory, which never shrinks (the buffer pool is zeroed inside it). */
  async wasmMemoryBytes(): Promise<number> {
    return (await this.ask({ op: 'memory' })) as number;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.ask({ op: 'close' });
    } finally {
      this.closing = true;
      await this.worker.terminate();
    }
  }

  private ask(request: EmbeddedAsk): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    if (this.closing) return Promise.reject(new EmbeddedGone('closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Held while answers are awaited, so a script whose last work is a statement does not exit
      // before its answer; let go when idle, so an open database never keeps a process alive.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private heard(message: EmbeddedMessage) {
    if ('op' in message) {
      if (message.op === 'notify') {
        for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
      }
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(received(message.error));
  }

  private stopped(reason: string) {
    if (this.gone) return;
    this.gone = new EmbeddedGone(this.closing ? 'closed' : reason);
    for (const waiting of this.pending.values()) waiting.reject(this.gone);
    this.pending.clear();
  }
}
