import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { type ZodType, z } from 'zod';

// Requests that are malformed by construction, made from a route's own zod schemas. Each
// schema is read as JSON Schema (`z.toJSONSchema`, input side); a valid request is generated from it
// and checked against the zod schema, then exactly one thing is broken in a way the JSON Schema says
// is wrong (a type it does not allow, a required field left out, a string past its maxLength, an
// impossible day where a date is expected, a number out of its range, an unknown enum value…) or that
// no text may hold (a NUL, half a surrogate pair). Everything else stays valid, so the hostile part
// reaches as deep as the code lets it. Zod is never asked whether the hostile request is bad.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
  default?: unknown;
}

type Location = 'params' | 'query' | 'body';

export interface RouteUnderTest {
  method: string;
  url: string;
  schemas: Partial<Record<Location, { json: JsonSchema; zod: ZodType }>>;
}

/** Written into a URL as it is, not encoded: `..%2F`, broken escapes. */
export class Raw {
  constructor(readonly text: string) {}
}

export interface HostileRequest {
  /** What was broken, for the failure report. */
  mutation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function asZod(schema: unknown): ZodType | undefined {
  return schema && typeof schema === 'object' && '_zod' in schema ? (schema as ZodType) : undefined;
}

/** The routes one `onRoute` call describes (HEAD twins of GET routes are left out: same handler). */
export function routeUnderTest(route: RouteOptions): RouteUnderTest[] {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
  const schemas: RouteUnderTest['schemas'] = {};
  const source = route.schema as Record<string, unknown> | undefined;
  for (const [location, key] of [
    ['params', 'params'],
    ['query', 'querystring'],
    ['body', 'body'],
  ] as const) {
    const zod = asZod(source?.[key]);
    if (zod) {
      const json = z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      schemas[location] = { json, zod };
    }
  }
  return methods.map((method) => ({ method, url: route.url, schemas }));
}

// ---------------------------------------------------------------------------------------------------
// Reading JSON Schema

/** Every alternative a node allows, one type each. */
function branches(node: JsonSchema): JsonSchema[] {
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return alternatives.flatMap(branches);
  if (Array.isArray(node.type)) return node.type.map((type) => ({ ...node, type }));
  return [node];
}

/** `{}` (what zod cannot describe, such as a transform's input) allows anything. */
function allowsAnything(node: JsonSchema): boolean {
  return branches(node).some(
    (b) => b.type === undefined && b.enum === undefined && b.const === undefined && !b.properties,
  );
}

function typesOf(node: JsonSchema): Set<string> {
  const types = new Set<string>();
  for (const b of branches(node)) {
    const type = b.type as string | undefined;
    if (type === 'integer') types.add('number');
    if (type) types.add(type);
    if (b.enum) for (const v of b.enum) types.add(v === null ? 'null' : typeof v);
    if (b.const !== undefined) types.add(b.const === null ? 'null' : typeof b.const);
    if (!type && b.properties) types.add('object');
  }
  return types;
}

const DATE_FORMATS = new Set(['date', 'date-time']);
const looksLikeDay = (b: JsonSchema) =>
  DATE_FORMATS.has(b.format ?? '') || b.pattern?.includes('\\d{4}-\\d{2}-\\d{2}');

// ---------------------------------------------------------------------------------------------------
// Valid values

export interface Fixtures {
  /**
   * Ids of rows that exist, by resource ('item', 'conversation', 'reservation'…), so requests get past
   * the lookups. A uuid field named after a resource (`itemId`, `reportedUserId`, `:id` after `/items/`)
   * mostly gets that resource's ids; any other uuid field, any of them.
   */
  ids: Record<string, string[]>;
}

function idsFor(fixtures: Fixtures, hint: string | undefined): string[] {
  const name = (hint ?? '').toLowerCase().replace(/[^a-z]/g, '');
  const resource = Object.keys(fixtures.ids).find((r) => name === r || name.endsWith(`${r}id`));
  return resource ? fixtures.ids[resource]! : Object.values(fixtures.ids).flat();
}

/** The resource a path parameter names: `/api/items/:id` → 'item', `/payment-methods/:id` → 'paymentmethod'. */
function paramHint(url: string, param: string): string {
  if (param !== 'id') return param;
  const segments = url.split('/');
  const before = segments[segments.indexOf(':id') - 1] ?? '';
  return before.replace(/s$/, '');
}

const READABLE = 'Fuzzed but perfectly ordinary text for this field';
/** What people type into free-text fields; the zod check picks the combinations a route accepts. */
const ORDINARY = [
  READABLE,
  'fuzz.person@stanford.edu',
  'stanford.edu',
  '2030-06-03',
  '12.50',
  '4242424242424242',
];

function validString(b: JsonSchema, fixtures: Fixtures, hint: string | undefined): fc.Arbitrary<string> {
  if (b.format === 'uuid') {
    return fc.oneof(
      { arbitrary: fc.constantFrom(...idsFor(fixtures, hint)), weight: 4 },
      { arbitrary: fc.uuid({ version: 4 }), weight: 1 },
    );
  }
  if (b.format === 'email') return fc.constant('fuzz.person@stanford.edu');
  if (b.format === 'date' || (b.format === undefined && looksLikeDay(b))) {
    return fc.constantFrom('2030-06-03', '2030-06-10');
  }
  if (b.format === 'date-time') return fc.constant('2030-06-03T10:00:00.000Z');
  const min = b.minLength ?? 0;
  const max = b.maxLength ?? 200;
  if (b.pattern) {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(b.pattern);
      return fc.stringMatching(regex).filter((s) => s.length >= min && s.length <= max);
    } catch {
      // A pattern fast-check cannot generate from: fall back to plain text (the zod check decides).
    }
  }
  const fitting = ORDINARY.filter((v) => v.length >= min && v.length <= max);
  return fitting.length > 0 ? fc.constantFrom(...fitting) : fc.constant('x'.repeat(Math.min(min, max)));
}

function validNumber(b: JsonSchema): fc.Arbitrary<number> {
  const min = Math.ceil(b.minimum ?? (b.exclusiveMinimum !== undefined ? b.exclusiveMinimum + 1 : 1));
  const max = Math.floor(b.maximum ?? (b.exclusiveMaximum !== undefined ? b.exclusiveMaximum - 1 : min + 10));
  return fc.integer({ min, max: Math.max(min, Math.min(max, min + 10)) });
}

/** A value the JSON Schema allows (the zod check of the whole request decides whether it really is). */
export function validValue(
  node: JsonSchema,
  fixtures: Fixtures,
  hint?: string,
  /** The hint for an object's properties: their own names, or the resource a path parameter names. */
  hintOf: (key: string) => string = (key) => key,
): fc.Arbitrary<unknown> {
  if (node.examples?.length) return fc.constantFrom(...node.examples);
  const options = branches(node).filter(
    (b) => b.type !== 'null' && (b.type !== undefined || b.enum || b.properties),
  );
  const b = options[0] ?? node;
  if (b.const !== undefined) return fc.constant(b.const);
  if (b.enum) return fc.constantFrom(...b.enum);
  switch (b.type) {
    case 'string':
      return validString(b, fixtures, hint);
    case 'number':
    case 'integer':
      return validNumber(b);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = b.items ? validValue(b.items, fixtures, hint) : fc.constant('x');
      const minLength = b.minItems ?? 0;
      return fc.uniqueArray(item, {
        minLength,
        maxLength: Math.max(minLength, Math.min(b.maxItems ?? 2, 2)),
        selector: (v) => JSON.stringify(v),
      });
    }
    case 'null':
      return fc.constant(null);
    default: {
      const properties = b.properties ?? {};
      return fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, child]) => [key, validValue(child, fixtures, hintOf(key))]),
        ),
        { requiredKeys: b.required ?? [] },
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Hostile values

const NUL = '\u0000';
const LONE_SURROGATE = '\uD800';
const IMPOSSIBLE_DAYS = ['2026-02-30', '2026-04-31', '0000-01-01', '2026-13-01', '99999-01-01'];
const IMPOSSIBLE_INSTANTS = ['2026-02-30T10:00:00Z', '0000-01-01T00:00:00Z', '2026-02-30'];

/** Values of a type the node does not allow; in a query string every value is text, so none there. */
function wrongTypes(node: JsonSchema, location: Location): unknown[] {
  if (location !== 'body' || allowsAnything(node)) return [];
  const types = typesOf(node);
  // Chosen so that coercion (z.coerce.number: true → 1, [] → 0, [5] → 5) cannot rescue them.
  const candidates: [string, unknown][] = [
    ['string', 'not the right kind of value'],
    ['number', 12345.678],
    ['boolean', true],
    ['object', { nested: { deeper: [1, 2] } }],
    ['array', ['a', 'b', 'c']],
    ['null', null],
  ];
  return candidates
    .filter(([type]) => !types.has(type))
    .filter(([type]) => !(types.has('number') && type === 'boolean'))
    .filter(([type]) => !(types.has('number') && type === 'null'))
    .map(([, value]) => value);
}

function notMatching(pattern: string): string[] {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return [];
  }
  return ['', ' ', '!!!', 'x y z', '../../etc/passwd', `<script>`].filter((s) => !regex.test(s));
}

/**
 * What cannot be valid here, by construction from the schema. `base` is the valid value the rest of
 * the request carries, so NUL and surrogates ride on otherwise good text.
 */
export function hostileValues(node: JsonSchema, base: unknown, location: Location): unknown[] {
  const values: unknown[] = [...wrongTypes(node, location)];
  const text = typeof base === 'string' ? base : 'text';
  // No text may hold these, whatever the field (the API boundary refuses them everywhere). Half a
  // surrogate pair exists only in JSON (`"\ud800"`): a URL carries UTF-8 bytes, which cannot encode it.
  values.push(`${text}${NUL}`, `${NUL}`, `${text}\u001b[2J`);
  if (location === 'body') values.push(`${text}${LONE_SURROGATE}`, `\uDC00${text}`);
  if (allowsAnything(node)) return values;
  const options = branches(node).filter((b) => b.type !== 'null');
  const only = <T>(check: (b: JsonSchema) => T | undefined): T[] =>
    options.length > 0 && options.every((b) => check(b) !== undefined) ? options.map((b) => check(b)!) : [];

  // Strings: each rule of every alternative broken (only when every alternative has that rule).
  if (options.every((b) => b.type === 'string' || b.enum)) {
    for (const max of only((b) => b.maxLength)) values.push('x'.repeat(max + 1));
    const minima = only((b) => (b.minLength && b.minLength > 1 ? b.minLength : undefined));
    for (const min of minima) values.push('x'.repeat(min - 1));
    if (options.every((b) => b.format === 'uuid')) {
      values.push(
        'not-a-uuid',
        '00000000-0000-0000-0000-00000000000g',
        `${randomUUID()}x`,
        new Raw('..%2F..%2Fetc%2Fpasswd'),
      );
    }
    if (options.every((b) => b.format === 'email')) values.push('not an e-mail', '@@');
    if (options.every((b) => b.format === 'date-time')) values.push(...IMPOSSIBLE_INSTANTS);
    else if (options.every(looksLikeDay)) values.push(...IMPOSSIBLE_DAYS);
    const enums = options.every((b) => b.enum) ? options.flatMap((b) => b.enum ?? []) : undefined;
    if (enums) values.push(...['no-such-option', 'PENDING', ''].filter((v) => !enums.includes(v)));
    if (options.length === 1 && options[0]!.pattern) values.push(...notMatching(options[0]!.pattern));
  }
  // Numbers: out of range, fractions for integers, and text that is no number.
  if (options.every((b) => b.type === 'number' || b.type === 'integer')) {
    const render = (n: number) => (location === 'query' ? String(n) : n);
    for (const min of only((b) => b.minimum)) values.push(render(min - 1), render(-1e9));
    for (const max of only((b) => b.maximum)) values.push(render(max + 1), render(1e15));
    if (options.every((b) => b.type === 'integer')) values.push(render(1.5));
    // Not '' or '0x10': Number() reads them as 0 and 16.
    if (location === 'query') values.push('NaN', 'Infinity', '1e400', 'twelve', '12abc');
  }
  // Arrays: too many (and a huge number of) elements, or a bad element.
  if (options.every((b) => b.type === 'array')) {
    const [array] = options;
    if (array?.maxItems !== undefined) {
      values.push(Array.from({ length: array.maxItems + 1 }, (_, i) => i));
      values.push(Array.from({ length: 20_000 }, () => 0));
    }
    if (array?.minItems) values.push([]);
  }
  return values;
}

// ---------------------------------------------------------------------------------------------------
// Requests

type Value = Record<string, unknown>;
export interface ValidRequest {
  params: Value;
  query: Value;
  body: unknown;
}

export interface Mutation {
  name: string;
  apply(request: ValidRequest): { request: ValidRequest; headers?: Record<string, string>; payload?: string };
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container = (root && typeof root === 'object' ? root : typeof head === 'number' ? [] : {}) as Record<
    string | number,
    unknown
  >;
  container[head!] = setAt(container[head!], rest, value);
  return container;
}

function deleteAt(root: unknown, path: (string | number)[]) {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Value | undefined)?.[key], root);
  if (parent && typeof parent === 'object') delete (parent as Value)[path.at(-1)!];
}

function getAt(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Value | undefined)?.[key as string], root);
}

/** Every field of a schema with its path, nested objects and array elements included. */
function fields(
  node: JsonSchema,
  path: (string | number)[] = [],
): { path: (string | number)[]; node: JsonSchema; required: boolean }[] {
  const found: { path: (string | number)[]; node: JsonSchema; required: boolean }[] = [];
  for (const b of branches(node)) {
    if (b.properties) {
      for (const [key, child] of Object.entries(b.properties)) {
        const childPath = [...path, key];
        found.push({ path: childPath, node: child, required: (b.required ?? []).includes(key) });
        found.push(...fields(child, childPath));
      }
    }
    if (b.type === 'array' && b.items) {
      found.push({ path: [...path, 0], node: b.items, required: false });
      found.push(...fields(b.items, [...path, 0]));
    }
  }
  return found;
}

/** Every way to break one thing in a request to this route. */
export function mutationsFor(route: RouteUnderTest, base: ValidRequest): Mutation[] {
  const mutations: Mutation[] = [];
  const replace = (location: Location, path: (string | number)[], value: unknown, name: string) =>
    mutations.push({
      name,
      apply: (request) => {
        const next = { ...request, [location]: clone(request[location]) } as ValidRequest;
        (next as unknown as Record<Location, unknown>)[location] = setAt(next[location], path, value);
        return { request: next };
      },
    });

  for (const location of ['params', 'query', 'body'] as const) {
    const schema = route.schemas[location];
    if (!schema) continue;
    for (const field of fields(schema.json)) {
      const label = `${location}.${field.path.join('.')}`;
      for (const value of hostileValues(field.node, getAt(base[location], field.path), location)) {
        // An empty path segment is another route (`/api/items/` is the list), not a bad parameter.
        if (location === 'params' && value === '') continue;
        replace(location, field.path, value, `${label} = ${describe(value)}`);
      }
      if (field.required && location !== 'params') {
        mutations.push({
          name: `${label} left out`,
          apply: (request) => {
            const next = { ...request, [location]: clone(request[location]) } as ValidRequest;
            deleteAt(next[location], field.path);
            return { request: next };
          },
        });
      }
    }
    if (location === 'body') {
      // Not `null`: a POST without a body reaches the schema as null too, and may mean "nothing to add".
      for (const value of wrongTypes(schema.json, 'body').filter((v) => v !== null)) {
        replace('body', [], value, `body = ${describe(value)}`);
      }
    }
  }
  // Path parameters the route does not describe (static files): walking out of the folder, broken escapes.
  for (const name of route.url.match(/:(\w+)|\*/g) ?? []) {
    const key = name === '*' ? '*' : name.slice(1);
    for (const raw of [
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2f%2e%2e%2fpackage.json',
      '%ZZ',
      '%00',
      'x'.repeat(300),
    ]) {
      replace('params', [key], new Raw(raw), `params.${key} = ${raw.slice(0, 40)}`);
    }
  }
  // Whatever the route: text no field may hold in a query parameter it does not even read.
  replace('query', ['unexpected'], `x${NUL}`, 'an extra query parameter holding NUL');
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) {
    mutations.push({
      name: 'a body that is not valid JSON',
      apply: (request) => ({
        request,
        payload: '{"title": "unfinished',
        headers: { 'content-type': 'application/json' },
      }),
    });
    mutations.push({
      name: 'a body of a type nobody accepts',
      apply: (request) => ({
        request,
        payload: 'hello',
        headers: { 'content-type': 'application/x-campusloop' },
      }),
    });
    mutations.push({
      name: 'a JSON body past the size limit',
      apply: (request) => ({
        request,
        payload: JSON.stringify({ filler: 'x'.repeat(150 * 1024) }),
        headers: { 'content-type': 'application/json' },
      }),
    });
  }
  return mutations;
}

function describe(value: unknown): string {
  if (value instanceof Raw) return `raw ${value.text.slice(0, 40)}`;
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}… (${json.length} chars)` : json;
}

/** encodeURIComponent, except that half a surrogate pair is written as its (invalid) UTF-8 bytes. */
function encode(value: unknown): string {
  if (value instanceof Raw) return value.text;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text
    .split(/([\uD800-\uDFFF])/)
    .map((part) => (/^[\uD800-\uDFFF]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}

export function toHttp(
  route: RouteUnderTest,
  extra: ReturnType<Mutation['apply']>,
  mutation: string,
): HostileRequest {
  const { params, query, body } = extra.request;
  const path = route.url.replace(/:(\w+)|\*/g, (_token, name: string | undefined) => {
    const value = params[name ?? '*'];
    return value === undefined ? '' : encode(value);
  });
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) pairs.push(`${encode(key)}=${encode(one)}`);
  }
  const url = pairs.length ? `${path}?${pairs.join('&')}` : path;
  const hasBody = body !== undefined || extra.payload !== undefined;
  const payload = extra.payload ?? (body === undefined ? undefined : JSON.stringify(body));
  return {
    mutation,
    method: route.method,
    url,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...extra.headers },
    ...(payload === undefined ? {} : { payload }),
  };
}

/** Valid requests for the route: generated from its JSON Schema, kept only when its zod schemas agree. */
export function validRequests(route: RouteUnderTest, fixtures: Fixtures, wanted = 8): ValidRequest[] {
  const part = (location: Location) => {
    const schema = route.schemas[location];
    if (!schema) return fc.constant(location === 'body' ? undefined : {});
    const arb =
      location === 'params'
        ? validValue(schema.json, fixtures, undefined, (key) => paramHint(route.url, key))
        : validValue(schema.json, fixtures);
    // A query string carries text only.
    return location === 'query'
      ? arb.map((v) =>
          Object.fromEntries(
            Object.entries(v as Value).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
          ),
        )
      : arb;
  };
  const candidates = fc.sample(
    fc.record({ params: part('params'), query: part('query'), body: part('body') }),
    { numRuns: 200, seed: 42 },
  ) as ValidRequest[];
  const accepted = candidates.filter((candidate) =>
    (['params', 'query', 'body'] as const).every((location) => {
      const schema = route.schemas[location];
      return !schema || schema.zod.safeParse(candidate[location]).success;
    }),
  );
  // Those that name existing rows first: their hostile twins get past the lookups.
  const allIds = Object.values(fixtures.ids).flat();
  const known = (r: ValidRequest) => allIds.filter((id) => JSON.stringify(r).includes(id)).length;
  const unique = [...new Map(accepted.map((r) => [JSON.stringify(r), r])).values()].sort(
    (a, b) => known(b) - known(a),
  );
  // When nothing generated passes (a rule JSON Schema cannot state), the first candidate still carries
  // the hostile part; the request is refused either way, only less deep.
  return unique.length > 0 ? unique.slice(0, wanted) : candidates.slice(0, 1);
}
