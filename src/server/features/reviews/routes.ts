import { reviewInput, reviewResponse, writtenReviewList } from '#shared/schemas/reviews.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { type ReviewDeps, reviewService } from './service.ts';

// Reviews. Revealed reviews are read through GET /api/items/:id and GET /api/users/:id.

export const reviewRoutes = signedInRoutes<{ db: Db; config: Config }>(async (app, { db, config }) => {
  const deps: ReviewDeps = { db, timeZone: config.campusTimeZone };

  app.post(
    '/reviews',
    { schema: { body: reviewInput, response: { 201: reviewResponse } } },
    async (request, reply) => {
      const review = await reviewService.create(deps, request.signedInUser.id, request.body);
      return reply.status(201).send({ success: true as const, review });
    },
  );

  app.get('/reviews/mine', { schema: { response: { 200: writtenReviewList } } }, async (request) => ({
    reviews: await reviewService.listWritten(db, request.signedInUser.id),
  }));
});
