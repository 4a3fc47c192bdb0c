import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { EmbeddedRequest, EmbeddedStart, SentError } from './embedded-protocol.ts';
import { keepStatements } from './pglite-statements.ts';

// The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: it runs every
// statement on the thread that calls it, so on the server's thread each uncached read held every other
// request for its milliseconds while the second core stayed idle. Here it runs beside the server,
// which sends it statements and transactions as messages (embedded-client.ts).

const port =
  parentPort ??
  (() => {
    throw new Error('embedded-thread.ts runs as a worker thread (embedded-client.ts starts it)');
  })();

const start = workerData as EmbeddedStart;

/** Drizzle asks for the text of dates, times and intervals, as it gets them from node-postgres. */
const asText = (value: unknown) => value;

function sentError(error: unknown): SentError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(error)) {
    // PostgreSQL's fields (code, constraint, detail, severity…); the query's options hold functions.
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { message: error.message, name: error.name, stack: error.stack, fields };
}

const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; endId?: number }>();
const unlisteners = new Map<string, () => Promise<void>>();
let nextTransaction = 1;

async function main() {
  const load = start.load ? new Blob([start.load.bytes], { type: start.load.type }) : undefined;
  const client = await PGlite.create(start.dir, {
    extensions: { pg_trgm, btree_gist },
    loadDataDir: load,
    startParams: [...PGlite.defaultStartParams, ...start.startParams],
  });
  await client.exec(start.setup);
  keepStatements(client);

  const handlers: Record<EmbeddedRequest['op'], (request: never) => Promise<unknown>> = {
    query: async (request: Extract<EmbeddedRequest, { op: 'query' }>) => {
      const target = request.tx === undefined ? client : transactionOf(request.tx);
      const parsers = Object.fromEntries(request.textTypes.map((type) => [type, asText]));
      const options = request.rowMode ? { rowMode: request.rowMode, parsers } : { parsers };
      const result = await target.query(request.text, request.params, options);
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    },
    exec: async (request: Extract<EmbeddedRequest, { op: 'exec' }>) => {
      const target = request.tx === undefined ? client : transactionOf(request.tx);
      const results = await target.exec(request.text);
      return results.map((result) => ({
        rows: result.rows,
        fields: result.fields,
        affectedRows: result.affectedRows,
      }));
    },
    begin: () =>
      new Promise<number>((begun, failed) => {
        const id = nextTransaction++;
        let entered = false;
        // PGlite commits when the callback returns and rolls back when it throws: the callback waits
        // for the server's word on how its transaction ends.
        const ended = client.transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              entered = true;
              transactions.set(id, {
                tx,
                end: (yes) => (yes ? commit() : rollback(new Error('rolled back by the server'))),
              });
              begun(id);
            }),
        );
        ended.then(
          () => settle(id, true, undefined),
          (error) => (entered ? settle(id, false, sentError(error)) : failed(error)),
        );
      }),
    end: async (request: Extract<EmbeddedRequest, { op: 'end' }>) => {
      const open = transactions.get(request.tx);
      if (!open || open.endId !== undefined) throw new Error(`no open embedded transaction ${request.tx}`);
      open.endId = request.id;
      open.end(request.commit);
      // Answered once PGlite has committed or rolled back (settle).
      return NO_REPLY;
    },
    listen: async (request: Extract<EmbeddedRequest, { op: 'listen' }>) => {
      if (unlisteners.has(request.channel)) return undefined;
      const unlisten = await client.listen(request.channel, (payload) =>
        port.postMessage({ op: 'notify', channel: request.channel, payload }),
      );
      unlisteners.set(request.channel, unlisten);
      return undefined;
    },
    unlisten: async (request: Extract<EmbeddedRequest, { op: 'unlisten' }>) => {
      const unlisten = unlisteners.get(request.channel);
      unlisteners.delete(request.channel);
      await unlisten?.();
      return undefined;
    },
    dump: async (request: Extract<EmbeddedRequest, { op: 'dump' }>) => {
      const dump = await client.dumpDataDir(request.compression);
      return { bytes: await dump.arrayBuffer(), type: dump.type };
    },
    memory: async () => client.Module.HEAPU8.buffer.byteLength,
    close: async () => {
      if (!client.closed) await client.close();
      return undefined;
    },
  };

  /** The transaction has ended: its `end` is answered with how. */
  function settle(id: number, ok: boolean, value: unknown) {
    const endId = transactions.get(id)?.endId;
    transactions.delete(id);
    if (endId !== undefined) reply(endId, ok, value);
  }

  function transactionOf(id: number): Transaction {
    const open = transactions.get(id);
    if (!open || open.endId !== undefined) throw new Error(`no open embedded transaction ${id}`);
    return open.tx;
  }

  const handle = (request: EmbeddedRequest) => {
    const handler = handlers[request.op] as (request: EmbeddedRequest) => Promise<unknown>;
    return handler(request).then(
      (value) => {
        if (value !== NO_REPLY) reply(request.id, true, value);
      },
      (error) => reply(request.id, false, sentError(error)),
    );
  };

  port.on('message', (request: EmbeddedRequest) => {
    if (
      request.op === 'begin' ||
      ((request.op === 'query' || request.op === 'exec') && request.tx === undefined)
    ) {
      turns.add(request.op === 'begin' || request.first === true, () => handle(request));
    } else {
      // A transaction's own statements and its end run at once: it holds PGlite until it ends.
      void handle(request);
    }
  });
  port.postMessage({ op: 'ready' });
}

const NO_REPLY = Symbol('no reply');

/**
 * PGlite runs one statement at a time, in the order they ask for it. Given to it as they arrive, a
 * changing request's statements waited behind every read sent before them, at each of its round trips.
 * Here the statements outside transactions, and transactions' begins, take turns: one at a time, the
 * changing requests' (and transactions') first, then the reads in order of arrival. The next is handed
 * to PGlite as soon as the one before is answered (or, for a begin, as soon as its transaction is open:
 * its statements then run at once, and what is handed on waits for its end).
 */
const turns = {
  first: [] as (() => Promise<unknown>)[],
  rest: [] as (() => Promise<unknown>)[],
  busy: false,
  add(first: boolean, run: () => Promise<unknown>) {
    (first ? this.first : this.rest).push(run);
    this.next();
  },
  next() {
    if (this.busy) return;
    const run = this.first.shift() ?? this.rest.shift();
    if (!run) return;
    this.busy = true;
    void run().finally(() => {
      this.busy = false;
      this.next();
    });
  },
};

function reply(id: number, ok: boolean, value: unknown) {
  const transfer =
    ok && value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof ArrayBuffer
      ? [value.bytes]
      : [];
  port.postMessage(ok ? { id, ok, value } : { id, ok, error: value }, transfer);
}

main().catch((error) => port.postMessage({ op: 'failed', error: sentError(error) }));
