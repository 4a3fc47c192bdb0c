import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import { ASK_LIMITS } from '#shared/asks.ts';
import {
  askIdParams,
  askInput,
  askList,
  askListQuery,
  askResponse,
  offerInput,
  offerResponse,
} from '#shared/schemas/asks.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { tooManyRequests } from '../../rate-limited.ts';
import { type AskDeps, askService } from './service.ts';

// "Ask your campus": the board, asking, offering, closing. Signed-in students only; the service holds
// the rules (verified, own campus, five open, dates, prohibited items).

/** A person's own posting rate, counted once the form is valid (as for reports). */
const perPerson = (what: string, max: number, message: ReturnType<typeof msg>) => ({
  max,
  timeWindow: 60 * 60 * 1000,
  hook: 'preHandler' as const,
  keyGenerator: (request: FastifyRequest) => `${what}:${request.user?.id ?? request.ip}`,
  errorResponseBuilder: tooManyRequests(message),
});

export const askRoutes = signedInRoutes<{ db: Db; config: Config; clock: Clock; jobs: JobQueue }>(
  async (app, { db, config, clock, jobs }) => {
    const deps: AskDeps = { db, clock, timeZone: config.campusTimeZone, jobs };

    app.get(
      '/asks',
      { schema: { querystring: askListQuery, response: { 200: askList } } },
      async (request) => ({
        asks: await askService.list(deps, request.signedInUser, request.query.mine ?? false),
      }),
    );

    app.post(
      '/asks',
      {
        config: {
          rateLimit: perPerson(
            'ask',
            ASK_LIMITS.perHour,
            msg`You have asked for a lot of things this hour. Please wait before asking again.`,
          ),
        },
        schema: { body: askInput, response: { 201: askResponse } },
      },
      async (request, reply) => {
        const ask = await askService.create(deps, request.signedInUser, request.body);
        return reply.status(201).send({ ask });
      },
    );

    app.post(
      '/asks/:id/offers',
      {
        config: {
          rateLimit: perPerson(
            'ask-offer',
            30,
            msg`You have made a lot of offers this hour. Please wait a little.`,
          ),
        },
        schema: { params: askIdParams, body: offerInput, response: { 201: offerResponse } },
      },
      async (request, reply) => {
        const offer = await askService.offer(
          deps,
          request.signedInUser,
          request.params.id,
          request.body.itemId,
        );
        return reply.status(201).send({ offer });
      },
    );

    app.delete(
      '/asks/:id',
      { schema: { params: askIdParams, response: { 200: askResponse } } },
      async (request) => ({ ask: await askService.close(deps, request.signedInUser, request.params.id) }),
    );
  },
);
