import pg from 'pg';

// node-postgres reads every array column with postgres-array, one character at a time through an
// object per character: a card's photos (text[]) and days (smallint[]), read for every card of every
// list and search the caches miss, took 3 % of the server's thread on searches with the caches off.
// PostgreSQL writes an array element in double quotes whenever it holds anything but plain
// characters (a comma, a brace, a quote, a backslash, a space, or nothing at all), so a
// one-dimensional array whose text has no quote and no backslash is its elements between commas,
// an unquoted NULL being null. Such an array is split; any other goes to node-postgres's own reader.

/** The array types the catalogue's cards hold: text[], varchar[], smallint[], integer[]. */
const TEXT_ARRAYS = [1009, 1015];
const INTEGER_ARRAYS = [1005, 1007];

/**
 * The elements of an array's text when it is one-dimensional and nothing in it is quoted or
 * escaped, each through `element` (null stays null); undefined when it must be read in full.
 */
export function plainArray<T>(text: string, element: (entry: string) => T): (T | null)[] | undefined {
  if (text.charCodeAt(0) !== 123 /* { */ || text.charCodeAt(text.length - 1) !== 125 /* } */)
    return undefined;
  const inner = text.slice(1, -1);
  if (/["\\{}]/.test(inner)) return undefined;
  if (inner === '') return [];
  return inner.split(',').map((entry) => (entry === 'NULL' ? null : element(entry)));
}

const asText = (entry: string) => entry;
const asInteger = (entry: string) => Number.parseInt(entry, 10);

let registered = false;

/** Reads plain arrays by splitting them, for every node-postgres connection of the process. */
export function readPlainArraysFast() {
  if (registered) return;
  registered = true;
  for (const [oids, element] of [
    [TEXT_ARRAYS, asText],
    [INTEGER_ARRAYS, asInteger],
  ] as const) {
    for (const oid of oids) {
      const full = pg.types.getTypeParser(oid, 'text') as (text: string) => unknown;
      pg.types.setTypeParser(
        oid,
        'text',
        (text: string) => plainArray<string | number>(text, element) ?? full(text),
      );
    }
  }
}
