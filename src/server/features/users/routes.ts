import { msg } from '@lingui/core/macro';
import { campusToday } from '#shared/calendar.ts';
import type { Locale } from '#shared/i18n.ts';
import { profileResponse, userIdParams } from '#shared/schemas/users.ts';
import { toJson } from '../../cache/answer-json.ts';
import { answerTags, type CachedAnswer, catalogueTags, type ReadCaches } from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import { sendJson } from '../../http/json-answers.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import { requestLocale } from '../../i18n.ts';
import { userService } from './service.ts';

export const userRoutes = publicRoutes<{ db: Db; config: Config; caches: ReadCaches }>(
  async (app, { db, config, caches }) => {
    app.get(
      '/users/:id',
      { config: { public: true }, schema: { params: userIdParams, response: { 200: profileResponse } } },
      async (request, reply) => {
        const { id } = request.params;
        const viewer = request.user;
        const locale = requestLocale(request);
        // The person themself (Borrowed tab, hidden items) and moderators get their own answer; everyone
        // else sees the same public profile, remembered until something it shows changes, once per
        // language (the badges' names are written in the reader's) and campus day (what is available now).
        if (viewer && (viewer.id === id || viewer.isAdmin)) {
          return userService.profile(db, id, viewer, config.campusTimeZone, locale);
        }
        const answer = await caches.catalogue.get(
          `profile:${campusToday(config.campusTimeZone).date}:${id}:${locale}`,
          () => publicProfile(id, locale),
          answerTags,
          { reader: viewer?.id, announced: true },
        );
        if ('missing' in answer) throw notFound(msg`User not found.`);
        return sendJson(request, reply, answer);
      },
    );

    /** Remembered until the person, their items or badges, or the reviews about them (and their writers' names) change. */
    async function publicProfile(id: string, locale: Locale): Promise<CachedAnswer> {
      try {
        const profile = await userService.profile(db, id, null, config.campusTimeZone, locale);
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
  },
);
