import type { ItemsAt } from '../../cache/read-caches.ts';

// A remembered page's items, as pieces of the JSON it is sent as. A new listing put on a page moves
// whole items in and out of it: cutting the text where each item begins, and joining the pieces again,
// costs a few microseconds where reading the page and writing it again cost fifty, for every page of
// every list a listing enters, on the one thread that also answers the reads.

/** How an item's JSON begins: its schema's first key is its id. */
const openingOf = (id: string) => `{"id":${JSON.stringify(id)}`;

/**
 * Between two items of a page: only there can the text read so, as a string's quotes are escaped and
 * no item holds a list of objects that begin with an id.
 */
const BETWEEN = '},{"id":';

/**
 * Where `items` lie in `json`, whose array of them opens at `open` (its `[`) and is the last array in
 * it: only scalar fields follow. Undefined when the text is not laid out so (each item beginning with
 * its id, the first right after the `[`, each next one after the previous item's `},`, none more): the
 * page is then recomputed, not revised.
 */
export function itemsAt(
  json: string,
  open: number,
  items: readonly { id: string; createdAt: string }[],
): ItemsAt | undefined {
  if (json[open] !== '[') return undefined;
  const starts: number[] = [];
  let at = open + 1;
  for (const item of items) {
    if (starts.length > 0) {
      const between = json.indexOf(BETWEEN, at);
      if (between < 0) return undefined;
      at = between + 2;
    }
    if (!json.startsWith(openingOf(item.id), at)) return undefined;
    starts.push(at);
  }
  const end = json.lastIndexOf(']');
  if (items.length === 0) {
    if (end !== open + 1) return undefined;
  } else {
    const more = json.indexOf(BETWEEN, at);
    if (end < at || json[end - 1] !== '}' || (more >= 0 && more < end)) return undefined;
  }
  return { starts, end, createdMs: items.map((item) => Date.parse(item.createdAt)) };
}

/** Each item's JSON, in order. */
export function piecesOf(json: string, at: ItemsAt): string[] {
  return at.starts.map((start, i) =>
    json.slice(start, i + 1 < at.starts.length ? at.starts[i + 1]! - 1 : at.end),
  );
}

/** Whether the item with this id is among them. */
export const holds = (json: string, at: ItemsAt, id: string): boolean => {
  const opening = openingOf(id);
  return at.starts.some((start) => json.startsWith(opening, start));
};

/** `before`, the pieces as an array, then `after`: the text and where its items lie. */
export function joined(
  before: string,
  pieces: readonly string[],
  createdMs: readonly number[],
  after: string,
): { json: string; at: ItemsAt } {
  const starts: number[] = [];
  let length = before.length + 1;
  for (const piece of pieces) {
    starts.push(length);
    length += piece.length + 1;
  }
  const end = pieces.length ? length - 1 : before.length + 1;
  return { json: `${before}[${pieces.join(',')}]${after}`, at: { starts, end, createdMs: [...createdMs] } };
}

/** The items but the last: the text and where they lie. */
export function withoutLast(json: string, at: ItemsAt): { json: string; at: ItemsAt } {
  const n = at.starts.length;
  if (n === 0) return { json, at };
  const end = n > 1 ? at.starts[n - 1]! - 1 : at.starts[0]!;
  return {
    json: json.slice(0, end) + json.slice(at.end),
    at: { starts: at.starts.slice(0, -1), end, createdMs: at.createdMs.slice(0, -1) },
  };
}
