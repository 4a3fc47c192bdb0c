import { createHook } from 'node:async_hooks';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ReadCaches } from '../cache/read-caches.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { dbLanes } from './db-lanes.ts';
import idempotency from './idempotency.ts';
import { readAdmission } from './read-admission.ts';
import security from './security.ts';
import session from './session.ts';

// Every request passes through these hooks, and most have nothing to wait for (a read without a
// cookie): they then go on at once. A promise per hook per request, with the async-context hooks
// the lanes keep, was a measured share of a remembered answer's cost (decision 090).

/** The promises made while `app` answers one read (a handler that returns at once). */
async function promisesForOneRead(app: FastifyInstance): Promise<number> {
  app.get('/read', (_request, reply) => {
    reply.send('ok');
  });
  await app.ready();
  await app.inject({ url: '/read' });
  let made = 0;
  const counting = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  }).enable();
  try {
    const answer = await app.inject({ url: '/read' });
    expect(answer.statusCode).toBe(200);
  } finally {
    counting.disable();
  }
  await app.close();
  return made;
}

async function bare() {
  const app = Fastify();
  await app.register(cookie);
  return app;
}

const config = { appOrigins: [], cookieSecure: false } as unknown as Config;

describe('hooks on every request', () => {
  it.each([
    ['read admission', (app: FastifyInstance) => app.register(readAdmission(4).plugin)],
    ['database lanes', (app: FastifyInstance) => app.register(dbLanes)],
    ['security', (app: FastifyInstance) => app.register(security, { config })],
    [
      'session',
      (app: FastifyInstance) =>
        app.register(session, {
          resume: async () => null,
          config,
          caches: {} as ReadCaches,
          hub: { caughtUp: async () => true },
        }),
    ],
    [
      'idempotency keys',
      (app: FastifyInstance) =>
        app.register(idempotency, { db: { transaction: async () => undefined } as unknown as Db }),
    ],
  ])('%s adds no promise to a read that has nothing to wait for', async (_name, register) => {
    const without = await promisesForOneRead(await bare());
    const app = await bare();
    await register(app);
    expect(await promisesForOneRead(app)).toBe(without);
  });
});

describe('hooks that wait', () => {
  async function sessionApp(resume: () => Promise<unknown>) {
    const app = await bare();
    await app.register(session, {
      resume: resume as never,
      config,
      caches: {} as ReadCaches,
      hub: { caughtUp: async () => true },
    });
    app.get('/who', (request, reply) => {
      reply.send({ user: request.user?.id ?? null });
    });
    return app;
  }

  it('goes on with the person a cookie resumes', async () => {
    const app = await sessionApp(async () => ({
      user: { id: 'u1' },
      expiresAt: new Date(Date.now() + 60_000),
      renewed: false,
    }));
    const answer = await app.inject({ url: '/who', cookies: { cl_session: 'token' } });
    expect(answer.json()).toEqual({ user: 'u1' });
    await app.close();
  });

  it('answers an error, and does not hang, when resuming a session fails', async () => {
    const app = await sessionApp(async () => {
      throw new Error('the database went away');
    });
    const answer = await app.inject({ url: '/who', cookies: { cl_session: 'token' } });
    expect(answer.statusCode).toBe(500);
    await app.close();
  });
});
