import { describe, expect, it } from 'vitest';
import { brokenCharacterMessage, controlCharacterMessage } from '#shared/schemas/fields.ts';
import { findBadText } from './input-guard.ts';

describe('findBadText', () => {
  it('finds a control character in any value or key, and names where', () => {
    expect(findBadText({ a: { b: ['ok', 'x\u0000'] } }, '')).toEqual({
      path: 'a.b.1',
      message: controlCharacterMessage,
    });
    expect(findBadText({ 'bad\u0007key': 1 }, '')).toEqual({
      path: 'bad\u0007key',
      message: controlCharacterMessage,
    });
    expect(findBadText(['\uD800'], '')).toEqual({ path: '.0', message: brokenCharacterMessage });
  });

  it('passes ordinary text, numbers, nulls and raw bytes', () => {
    expect(
      findBadText({ a: 'line\nbreak\ttab 😀', n: 1, z: null, raw: Buffer.from([0]) }, ''),
    ).toBeUndefined();
    expect(findBadText(undefined, '')).toBeUndefined();
  });

  it('walks a body nested far deeper than the call stack would allow', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findBadText(deep, '')?.message).toBe(controlCharacterMessage);
  });
});
