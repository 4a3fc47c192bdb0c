import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { plainArray, readPlainArraysFast } from './array-columns.ts';

// Arrays as PostgreSQL writes them: split when nothing in them is quoted, read in full otherwise,
// with the same result as node-postgres's own reader.

const TEXT_ARRAY: number = 1009;
const SMALLINT_ARRAY: number = 1005;
const fullText = pg.types.getTypeParser(TEXT_ARRAY, 'text') as (text: string) => unknown;
const fullSmallint = pg.types.getTypeParser(SMALLINT_ARRAY, 'text') as (text: string) => unknown;

describe('plain arrays read by splitting', () => {
  it('splits a one-dimensional array with nothing quoted, NULL as null', () => {
    expect(plainArray('{/uploads/a.webp,/uploads/b.webp}', String)).toEqual([
      '/uploads/a.webp',
      '/uploads/b.webp',
    ]);
    expect(plainArray('{0,1,6}', Number)).toEqual([0, 1, 6]);
    expect(plainArray('{}', String)).toEqual([]);
    expect(plainArray('{a,NULL,b}', String)).toEqual(['a', null, 'b']);
  });

  it('leaves to the full reader what is quoted, escaped, nested or has bounds', () => {
    for (const text of [
      '{"a,b",c}',
      '{"",x}',
      '{"NULL"}',
      '{"say \\"hi\\""}',
      '{{1,2},{3,4}}',
      '[0:1]={1,2}',
    ])
      expect(plainArray(text, String), text).toBeUndefined();
  });

  it('gives what node-postgres gives, for every kind of element', () => {
    readPlainArraysFast();
    const fast = pg.types.getTypeParser(TEXT_ARRAY, 'text') as (text: string) => unknown;
    expect(fast).not.toBe(fullText);
    for (const text of [
      '{/uploads/a.webp,/uploads/b.webp}',
      '{}',
      '{a,NULL,b}',
      '{"a,b","c d","",NULL,"NULL","\\\\","{x}"}',
      '{{a,b},{c,d}}',
    ])
      expect(fast(text), text).toEqual(fullText(text));
    const days = pg.types.getTypeParser(SMALLINT_ARRAY, 'text') as (text: string) => unknown;
    for (const text of ['{0,1,2,3,4,5,6}', '{}', '{-1,NULL,32767}'])
      expect(days(text), text).toEqual(fullSmallint(text));
  });
});
