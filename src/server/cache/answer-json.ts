import { z } from 'zod';

// An answer goes out as its schema encodes it (z.encode: codecs run backwards, unknown keys dropped,
// every field checked), as fastify-type-provider-zod sends a route's response. zod runs an encoding
// without its compiled object parser: a 12-item list took 43 µs encoded against 15 µs parsed, on every
// list, item page and profile computed. Where a schema has no codec, transform, default or catch
// anywhere in it, encoding and parsing are the same walk with the same result, so such a schema is
// parsed; any other is encoded. Which one is decided once per schema, by looking at every part of it.

/** Kinds whose parts are looked at, and where they are in the schema's definition. */
const PARTS: Record<string, (def: Record<string, unknown>) => unknown[]> = {
  object: (def) => [...Object.values(def.shape as Record<string, unknown>), def.catchall],
  array: (def) => [def.element],
  optional: (def) => [def.innerType],
  nullable: (def) => [def.innerType],
  readonly: (def) => [def.innerType],
  nonoptional: (def) => [def.innerType],
  union: (def) => def.options as unknown[],
  intersection: (def) => [def.left, def.right],
  record: (def) => [def.keyType, def.valueType],
  tuple: (def) => [...(def.items as unknown[]), def.rest],
  map: (def) => [def.keyType, def.valueType],
  set: (def) => [def.valueType],
};

/** Kinds that read the same in both directions and have no parts. */
const LEAVES = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'date',
  'enum',
  'literal',
  'null',
  'undefined',
  'void',
  'any',
  'unknown',
  'never',
  'nan',
  'template_literal',
]);

const verdicts = new WeakMap<z.ZodType, boolean>();

/**
 * True when parsing `schema` gives what encoding it gives: no part of it changes a value or runs one
 * way only. Refinements (checks) are fine: both directions run them. Lazy schemas, pipes, codecs,
 * transforms, defaults, catches and custom kinds are not looked into: encoded.
 */
export function encodesAsParsed(schema: z.ZodType): boolean {
  const known = verdicts.get(schema);
  if (known !== undefined) return known;
  const verdict = plain(schema, new Set());
  verdicts.set(schema, verdict);
  return verdict;
}

function plain(schema: unknown, seen: Set<unknown>): boolean {
  if (schema === undefined) return true; // an absent catchall or rest
  if (!(schema instanceof z.ZodType)) return false;
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (LEAVES.has(def.type)) return true;
  const parts = PARTS[def.type];
  return parts?.(def).every((part) => plain(part, seen)) ?? false;
}

/** `value` as `schema` encodes it, or why it cannot be: parsed when that gives the same. */
export function safeEncoded<S extends z.ZodType>(schema: S, value: z.output<S>) {
  return encodesAsParsed(schema)
    ? (schema.safeParse(value) as z.ZodSafeParseResult<z.input<S>>)
    : z.safeEncode(schema, value);
}

/** `value` as `schema` encodes it: what a route's response schema sends. */
export function encoded<S extends z.ZodType>(schema: S, value: z.output<S>): z.input<S> {
  const result = safeEncoded(schema, value);
  if (!result.success) throw result.error;
  return result.data;
}

/** The JSON a route's response schema would send for `value` (fastify-type-provider-zod's way). */
export function toJson<S extends z.ZodType>(schema: S, value: z.output<S>): string {
  return JSON.stringify(encoded(schema, value));
}
