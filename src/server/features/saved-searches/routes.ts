import { successResponse } from '#shared/schemas/auth.ts';
import {
  SAVED_SEARCH_LIMIT,
  savedSearchIdParams,
  savedSearchInput,
  savedSearchList,
  savedSearchResponse,
} from '#shared/schemas/saved-searches.ts';
import type { Db } from '../../db/client.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { savedSearchService } from './service.ts';

// "Tell me when something matches" on Browse, and the list of saved searches in Settings.

export const savedSearchRoutes = signedInRoutes<{ db: Db }>(async (app, { db }) => {
  app.get('/saved-searches', { schema: { response: { 200: savedSearchList } } }, async (request) => ({
    savedSearches: await savedSearchService.listMine(db, request.signedInUser.id),
    limit: SAVED_SEARCH_LIMIT,
  }));

  // 201 for a new one; 200 with the one already kept when the same search was saved before.
  app.post(
    '/saved-searches',
    { schema: { body: savedSearchInput, response: { 200: savedSearchResponse, 201: savedSearchResponse } } },
    async (request, reply) => {
      const { savedSearch, created } = await savedSearchService.save(db, request.signedInUser, request.body);
      return reply.status(created ? 201 : 200).send({ savedSearch });
    },
  );

  app.delete(
    '/saved-searches/:id',
    { schema: { params: savedSearchIdParams, response: { 200: successResponse } } },
    async (request) => {
      await savedSearchService.remove(db, request.signedInUser.id, request.params.id);
      return { success: true as const };
    },
  );
});
