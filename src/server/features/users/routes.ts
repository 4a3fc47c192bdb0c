import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileResponse, userIdParams } from '#shared/schemas/users.ts';
import { type ReadCaches, sendJson, toJson } from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { userService } from './service.ts';

export const userRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config; caches: ReadCaches }> = async (
  app,
  { db, config, caches },
) => {
  app.get(
    '/users/:id',
    { schema: { params: userIdParams, response: { 200: profileResponse } } },
    async (request, reply) => {
      const { id } = request.params;
      const viewer = request.user;
      // The person themself (Borrowed tab, hidden items) and moderators get their own answer; everyone
      // else sees the same public profile, remembered until a table it reads changes.
      if (viewer && (viewer.id === id || viewer.isAdmin)) {
        return userService.profile(db, id, viewer, config.campusTimeZone);
      }
      const answer = await caches.catalogue.get(`profile:${id}`, async () => ({
        json: toJson(profileResponse, await userService.profile(db, id, null, config.campusTimeZone)),
      }));
      if ('missing' in answer) throw notFound('User not found.');
      return sendJson(reply, answer.json);
    },
  );
};
