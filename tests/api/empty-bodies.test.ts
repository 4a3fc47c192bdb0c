import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startSession } from '../../src/server/features/auth/service.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 036: an action that needs no body (sign out, sign out of other sessions) works whatever
// empty body a client sends; a refused sign-out would leave its session alive.

const routes: { method: string; url: string; body?: z.ZodType }[] = [];
const t = setupTestApp(
  {},
  {
    onRoute: (route) => {
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url, body: route.schema?.body as z.ZodType | undefined });
      }
    },
  },
);
const db = () => t.database.db;

/** The ways a client sends "nothing": no body at all, JSON's content type with nothing, `{}`. */
const emptyBodies = {
  'no body and no content type': {},
  'a JSON content type and an empty body': { headers: { 'content-type': 'application/json' }, payload: '' },
  'an empty JSON object': { payload: {} },
} as const;

const me = async (cookie: string) => (await t.get('/api/auth/me', cookie)).json().user;

describe('an empty body is no body', () => {
  it.each(Object.entries(emptyBodies))('sign out with %s ends the session', async (_how, body) => {
    const { cookie } = await createSignedInUser(db());
    const response = await t.request({ method: 'POST', url: '/api/auth/logout', cookie, ...body });
    expect(response.statusCode, response.body).toBe(200);
    expect(await me(cookie)).toBeNull();
  });

  it.each(Object.entries(emptyBodies))('sign out of other sessions with %s ends them', async (_how, body) => {
    const { user, cookie } = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const phone = `cl_session=${(await startSession(db(), user.id, 30)).token}`;
    const response = await t.request({
      method: 'POST',
      url: '/api/account/sessions/sign-out-others',
      cookie,
      ...body,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, ended: 1 });
    expect(await me(phone)).toBeNull();
    expect((await me(cookie)).id).toBe(user.id);
    expect((await me(other.cookie)).id).toBe(other.user.id);
  });

  it('reaches a route without a body schema when the content type says JSON and nothing follows', async () => {
    const { cookie } = await createSignedInUser(db());
    const response = await t.request({
      method: 'POST',
      url: '/api/notifications/read-all',
      cookie,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('still refuses, with a clear 400 and nothing done, an empty body where one is needed', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.cookies.find((c) => c.name === 'cl_session')).toBeUndefined();
  });

  it('still refuses JSON that is not JSON', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '{"unfinished',
    });
    expect(response.statusCode).toBe(400);
  });

  it('every POST, PUT and DELETE whose body may be {} accepts no body at all too', () => {
    const mutating = routes.filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method));
    expect(mutating.length).toBeGreaterThan(20);
    const refusingNothing = mutating
      .filter((route) => route.body?.safeParse({}).success)
      .filter((route) => !route.body!.safeParse(undefined).success || !route.body!.safeParse(null).success)
      .map((route) => `${route.method} ${route.url}`);
    expect(refusingNothing).toEqual([]);
  });
});
