import { describe, expect, it } from 'vitest';
import { holds, itemsAt, joined, piecesOf, withoutLast } from './page-items.ts';

// A page's items are cut out of its text and joined again without reading them: every cut must fall
// where an item begins and ends, and the text must say where it was cut as a fresh reading would.

const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const itemOf = (n: number) => ({
  id: idOf(n),
  title: `Item ${n}, with [brackets] and "quotes" and {braces}`,
  days: [1, 2],
  createdAt: new Date(Date.UTC(2026, 10, 30, 10, n)).toISOString(),
  user: { id: idOf(900), name: 'Maya' },
});
const listOf = (...ns: number[]) =>
  JSON.stringify({ items: ns.map(itemOf), total: 7, page: 1, hasMore: true });
const OPEN = '{"items":'.length;

describe("where a page's items lie in its text", () => {
  it('cuts each item whole, through nested arrays, objects and brackets in its strings', () => {
    const json = listOf(30, 20, 10);
    const at = itemsAt(json, OPEN, [30, 20, 10].map(itemOf))!;
    expect(piecesOf(json, at).map((piece) => JSON.parse(piece))).toEqual([30, 20, 10].map(itemOf));
    expect(at.createdMs).toEqual([30, 20, 10].map((n) => Date.parse(itemOf(n).createdAt)));
    expect(JSON.parse(`{${json.slice(at.end + 2)}`)).toEqual({ total: 7, page: 1, hasMore: true });
    expect([holds(json, at, idOf(20)), holds(json, at, idOf(900)), holds(json, at, idOf(25))]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('refuses a text not laid out so: items out of order, missing, not first in their object, or not first', () => {
    const json = listOf(30, 20, 10);
    expect(itemsAt(json, OPEN, [20, 30, 10].map(itemOf))).toBeUndefined();
    expect(itemsAt(json, OPEN, [30, 10].map(itemOf))).toBeUndefined();
    expect(itemsAt(json, OPEN, [30, 20, 10, 5].map(itemOf))).toBeUndefined();
    expect(itemsAt(json, OPEN + 1, [30, 20, 10].map(itemOf))).toBeUndefined();
    const idLater = JSON.stringify({
      items: [{ title: 'x', id: idOf(30), createdAt: itemOf(30).createdAt }],
    });
    expect(itemsAt(idLater, OPEN, [itemOf(30)])).toBeUndefined();
    const itemsLater = JSON.stringify({ page: 1, items: [itemOf(30)] });
    expect(itemsAt(itemsLater, OPEN, [itemOf(30)])).toBeUndefined();
    expect(itemsAt(listOf(), OPEN, [])).toEqual({ starts: [], end: OPEN + 1, createdMs: [] });
  });

  it('joins pieces into the text a fresh writing gives, knowing where they lie', () => {
    for (const ns of [[], [40], [40, 30, 20]]) {
      const json = listOf(...ns);
      const at = itemsAt(json, OPEN, ns.map(itemOf))!;
      const again = joined('{"items":', piecesOf(json, at), at.createdMs, json.slice(at.end + 1));
      expect(again).toEqual({ json, at });
    }
  });

  it('drops the last item, down to none', () => {
    let current = JSON.stringify([40, 30, 20].map(itemOf));
    let at = itemsAt(current, 0, [40, 30, 20].map(itemOf))!;
    for (const left of [[40, 30], [40], []]) {
      ({ json: current, at } = withoutLast(current, at));
      expect(current).toBe(JSON.stringify(left.map(itemOf)));
      expect(at).toEqual(itemsAt(current, 0, left.map(itemOf)));
    }
  });
});
