import { type PGlite, parse, protocol } from '@electric-sql/pglite';

// PGlite runs an unnamed statement for every `query`: it parses and plans the SQL again each time, and
// sends each of the protocol's six messages to the database as a call of its own. Planning is most of
// a catalogue read's time there (the database runs in WebAssembly, on the server's one thread), and
// PostgreSQL's statements are already prepared by name (prepared.ts). A statement asked a second time,
// outside a transaction, is kept here prepared by name, and each run of it is one call: bind, describe,
// execute and sync together. PGlite's own `query` still runs everything else (a transaction's
// statements, which go through its own handle; a statement's first run) and defines how values are
// sent and read.

type Query = PGlite['query'];
type QueryOptions = NonNullable<Parameters<Query>[2]>;

interface Kept {
  name: string;
  /** Each parameter's type, as PostgreSQL inferred it when the statement was prepared. */
  types: number[];
}

/** Statements kept prepared at most; the one used longest ago is closed for a new one. */
export const MAX_KEPT_STATEMENTS = 500;

/**
 * Replaces `client.query` (Drizzle's transactions use their own handle's) with one that keeps statements asked more than once
 * prepared by name, and runs each in one call. Options PGlite's query reads beyond its parsers
 * (`blob`, `paramTypes`, …) send the statement the usual way.
 */
export function keepStatements(client: PGlite, max = MAX_KEPT_STATEMENTS): void {
  const query = client.query.bind(client) as Query;
  const seen = new Set<string>();
  const kept = new Map<string, Kept>();
  let next = 0;
  const exclusive = client as unknown as {
    _runExclusiveTransaction<T>(run: () => Promise<T>): Promise<T>;
    _runExclusiveQuery<T>(run: () => Promise<T>): Promise<T>;
  };

  const prepare = async (text: string): Promise<Kept> => {
    const name = `kept_${next++}`;
    const { messages } = await client.execProtocol(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
    );
    const described = messages.find((m) => m.name === 'parameterDescription') as
      | { dataTypeIDs: number[] }
      | undefined;
    return { name, types: described?.dataTypeIDs ?? [] };
  };

  const close = (statement: Kept) =>
    client.execProtocol(
      concat([protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync()]),
    );

  const run = async (text: string, params: unknown[], options: QueryOptions | undefined) => {
    let statement = kept.get(text);
    if (statement) {
      // Used now: the last to be closed.
      kept.delete(text);
      kept.set(text, statement);
    } else {
      statement = await prepare(text);
      kept.set(text, statement);
      if (kept.size > max) {
        const [oldestText, oldest] = kept.entries().next().value as [string, Kept];
        kept.delete(oldestText);
        await close(oldest);
      }
    }
    const serializers = client.serializers as Record<number, (value: unknown) => string>;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.types[i]!;
      const serialize = options?.serializers?.[type] ?? serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    const { messages } = await client.execProtocol(
      concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, client.parsers, options)[0]!;
  };

  client.query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
    if (!isPlain(options)) return query(text, params, options);
    if (!kept.has(text) && !seen.has(text)) {
      // Asked once: kept only when asked again (a statement built for one request is not kept).
      if (seen.size >= max * 4) seen.clear();
      seen.add(text);
      return query(text, params, options);
    }
    return exclusive._runExclusiveTransaction(() =>
      exclusive._runExclusiveQuery(() => run(text, params ?? [], options)),
    );
  }) as Query;
}

/** Only the options this path honours: the row mode and the parsers and serializers by type. */
function isPlain(options: QueryOptions | undefined): boolean {
  if (!options) return true;
  return Object.keys(options).every((key) => key === 'rowMode' || key === 'parsers' || key === 'serializers');
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
