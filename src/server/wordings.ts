// Words stored for a person are stored as how to write them, not only as written (decision 052). A
// notification's title and message and a billing row's description are written when the event happens,
// in the recipient's language of that moment (the e-mail and the push go out in it). Someone who switches
// language later reads them again in the new one: the row keeps its wording's kind (the name its builder
// was given here) and the values the builder was called with, and the reader's side calls the builder
// again with them, in the reader's language.
//
// A builder is registered when its module loads, under a kind that must never change meaning: rows keep
// it. A kind nobody registers any more (renamed, removed), or values a builder no longer accepts, leave
// the row's stored text to be read, as for rows from before wordings were kept.

/** A wording as a row stores it: its kind and the values its builder was called with (JSON). */
export interface StoredWording {
  kind: string;
  values: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry of builders with different arguments.
type Builder = (...args: any[]) => object;

const builders = new Map<string, Builder>();
const made = new WeakMap<object, StoredWording>();

/**
 * Dates survive JSON as `{ $date: iso }` (a reminder's answer-by time, a row's timestamps), and an
 * argument left out as `{ $undefined: true }` (JSON would make it null).
 */
function encode(values: unknown[]): unknown {
  return JSON.parse(
    JSON.stringify(values, function (this: unknown, key, value) {
      const original = (this as Record<string, unknown>)[key];
      if (original instanceof Date) return { $date: original.toISOString() };
      if (value === undefined && this === values) return { $undefined: true };
      return value;
    }),
  );
}

function decode(values: unknown): unknown[] | null {
  if (!Array.isArray(values)) return null;
  const args: unknown[] = JSON.parse(JSON.stringify(values), (_key, value) =>
    value && typeof value === 'object' && typeof value.$date === 'string' && Object.keys(value).length === 1
      ? new Date(value.$date)
      : value,
  );
  return args.map((arg) =>
    arg && typeof arg === 'object' && (arg as { $undefined?: unknown }).$undefined === true ? undefined : arg,
  );
}

/**
 * Registers `build` under `kind` and answers it wrapped: what the wrapper returns remembers the kind and
 * the values (see storedWordingOf). `build` must be synchronous, write only from its arguments and the
 * active language, and take values that survive JSON (strings, numbers, plain objects, dates). A builder
 * given whole rows names what it reads with `keep`, so a row's other columns (a pickup code, a payment's
 * id) are not copied into the words.
 */
export function wording<A extends unknown[], R extends object>(
  kind: string,
  build: (...args: A) => R,
  keep: (...args: A) => unknown[] = (...args) => args,
) {
  if (builders.has(kind)) throw new Error(`Two wordings are registered as "${kind}".`);
  builders.set(kind, build as Builder);
  return (...args: A): R => {
    const result = build(...args);
    made.set(result, { kind, values: encode(keep(...args)) });
    return result;
  };
}

/** Only `keys` of `row` (for a wording's `keep`). */
export function only<T extends object, K extends keyof T>(row: T, ...keys: K[]): Pick<T, K> {
  const kept = {} as Pick<T, K>;
  for (const key of keys) kept[key] = row[key];
  return kept;
}

/** How `result` was made, when a registered wording made it; null for words made any other way. */
export function storedWordingOf(result: object): StoredWording | null {
  return made.get(result) ?? null;
}

/**
 * The stored wording written again, in the active language (call it inside inLocale); undefined when
 * it cannot be (no kind, a kind nobody registers, values its builder no longer accepts).
 */
export function rewritten<R extends object>(kind: string | null, values: unknown): R | undefined {
  if (!kind) return undefined;
  const build = builders.get(kind);
  const args = decode(values);
  if (!build || !args) return undefined;
  try {
    return build(...args) as R;
  } catch {
    return undefined;
  }
}
