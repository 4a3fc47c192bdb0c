import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { responseSerializer } from './response-serializer.ts';

// A route's answer as its schema sends it: parsed when the schema reads the same both ways, encoded
// otherwise, and a value the schema refuses never goes out.

const plain = z.object({ id: z.uuid(), name: z.string() });
const isoDate = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});
const withDate = z.object({ at: isoDate });
const ID = '00000000-0000-4000-8000-000000000001';

let answer: unknown;
const app = Fastify();
beforeAll(async () => {
  app.setSerializerCompiler(responseSerializer);
  app.get('/plain', { schema: { response: { 200: plain } } }, async () => answer);
  app.get('/dated', { schema: { response: { 200: withDate } } }, async () => answer);
  app.get('/wrapped', { schema: { response: { 200: { properties: plain } } } }, async () => answer);
  await app.ready();
});
afterAll(() => app.close());

describe('route answers', () => {
  it('parses a schema that reads the same both ways, dropping what it does not send', async () => {
    const parse = vi.spyOn(plain, 'safeParse');
    answer = { id: ID, name: 'Maya', password: 'secret' };
    const response = await app.inject('/plain');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`{"id":"${ID}","name":"Maya"}`);
    expect(parse).toHaveBeenCalledTimes(1);
    expect((await app.inject('/wrapped')).body).toBe(`{"id":"${ID}","name":"Maya"}`);
    parse.mockRestore();
  });

  it('encodes a schema with a codec', async () => {
    const parse = vi.spyOn(withDate, 'safeParse');
    answer = { at: new Date(Date.UTC(2026, 11, 1, 9)) };
    const response = await app.inject('/dated');
    expect(response.body).toBe('{"at":"2026-12-01T09:00:00.000Z"}');
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
  });

  it('sends nothing the schema refuses: a server error, not the value', async () => {
    answer = { id: 'not-an-id', name: 'Maya' };
    const response = await app.inject('/plain');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('not-an-id');
    answer = { at: 'yesterday' };
    expect((await app.inject('/dated')).statusCode).toBe(500);
  });
});
