import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviewInput, reviewResponse, writtenReviewList } from '#shared/schemas/reviews.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { type ReviewDeps, reviewService } from './service.ts';

// Issue 6 reviews. Revealed reviews are read through GET /api/items/:id and GET /api/users/:id.

export const reviewRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  const deps: ReviewDeps = { db, timeZone: config.campusTimeZone };
  const signedIn = {
    onRequest: async (request: Parameters<typeof requireUser>[0]) => void requireUser(request),
  };

  app.post(
    '/reviews',
    { ...signedIn, schema: { body: reviewInput, response: { 201: reviewResponse } } },
    async (request, reply) => {
      const review = await reviewService.create(deps, requireUser(request).id, request.body);
      return reply.status(201).send({ success: true as const, review });
    },
  );

  app.get(
    '/reviews/mine',
    { ...signedIn, schema: { response: { 200: writtenReviewList } } },
    async (request) => ({ reviews: await reviewService.listWritten(db, requireUser(request).id) }),
  );
};
