import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unreadCountResponse } from '#shared/schemas/chat.ts';
import { itemDetail, itemList } from '#shared/schemas/items.ts';
import { notificationList } from '#shared/schemas/notifications.ts';
import { profileResponse } from '#shared/schemas/users.ts';
import { encoded, encodesAsParsed, toJson } from './answer-json.ts';

const isoDate = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

describe('answers encoded as their schemas send them', () => {
  it('parses the schemas of the remembered answers, which hold no codec', () => {
    for (const schema of [
      itemList,
      itemList.shape.items,
      itemDetail,
      profileResponse,
      notificationList,
      unreadCountResponse,
    ])
      expect(encodesAsParsed(schema)).toBe(true);
  });

  it('encodes a schema with anything that reads one way only, however deep', () => {
    const deep = (inner: z.ZodType) => z.object({ list: z.array(z.object({ at: inner.nullable() })) });
    expect(encodesAsParsed(deep(isoDate))).toBe(false);
    expect(encodesAsParsed(deep(z.string().transform((s) => s.length)))).toBe(false);
    expect(encodesAsParsed(deep(z.string().default('none')))).toBe(false);
    expect(encodesAsParsed(deep(z.number().catch(0)))).toBe(false);
    expect(encodesAsParsed(deep(z.lazy(() => z.string())))).toBe(false);
    expect(encodesAsParsed(z.union([z.string(), z.number().pipe(z.int())]))).toBe(false);
    expect(encodesAsParsed(deep(z.string().refine((s) => s !== 'x')))).toBe(true);
  });

  it('sends a codec encoded, not decoded', () => {
    const when = new Date(Date.UTC(2026, 10, 30, 12));
    expect(toJson(z.object({ at: isoDate }), { at: when })).toBe('{"at":"2026-11-30T12:00:00.000Z"}');
  });

  it('sends what z.encode sends: unknown keys dropped, bad values refused', () => {
    const schema = z.object({ id: z.uuid(), tags: z.array(z.enum(['a', 'b'])), note: z.string().nullable() });
    const value = {
      id: '00000000-0000-4000-8000-000000000001',
      tags: ['a' as const],
      note: null,
      secret: 'x',
    };
    expect(encoded(schema, value)).toEqual(z.encode(schema, value));
    expect(toJson(schema, value)).toBe(
      '{"id":"00000000-0000-4000-8000-000000000001","tags":["a"],"note":null}',
    );
    expect(() => toJson(schema, { ...value, tags: ['c'] } as never)).toThrow();
    expect(() => toJson(schema, { ...value, id: 'not-an-id' })).toThrow();
  });
});
