import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileResponse, userIdParams } from '#shared/schemas/users.ts';
import {
  answerTags,
  type CachedAnswer,
  catalogueTags,
  type ReadCaches,
  sendJson,
  toJson,
} from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import { userService } from './service.ts';

export const userRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config; caches: ReadCaches }> = async (
  app,
  { db, config, caches },
) => {
  app.get(
    '/users/:id',
    { config: { public: true }, schema: { params: userIdParams, response: { 200: profileResponse } } },
    async (request, reply) => {
      const { id } = request.params;
      const viewer = request.user;
      // The person themself (Borrowed tab, hidden items) and moderators get their own answer; everyone
      // else sees the same public profile, remembered until something it shows changes.
      if (viewer && (viewer.id === id || viewer.isAdmin)) {
        return userService.profile(db, id, viewer, config.campusTimeZone);
      }
      const answer = await caches.catalogue.get(`profile:${id}`, () => publicProfile(id), answerTags);
      if ('missing' in answer) throw notFound('User not found.');
      return sendJson(reply, answer.json);
    },
  );

  /** Remembered until the person, their items or badges, or the reviews about them (and their writers' names) change. */
  async function publicProfile(id: string): Promise<CachedAnswer> {
    try {
      const profile = await userService.profile(db, id, null, config.campusTimeZone);
      const people = [id, ...profile.reviews.map((review) => review.reviewer.id)];
      const tags = [catalogueTags.profile(id), ...new Set(people.map(catalogueTags.user))];
      return { json: toJson(profileResponse, profile), tags };
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) {
        return { missing: true, tags: [catalogueTags.user(id)] };
      }
      throw error;
    }
  }
};
