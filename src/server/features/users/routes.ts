import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileResponse, userIdParams } from '#shared/schemas/users.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { userService } from './service.ts';

export const userRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (app, { db, config }) => {
  app.get(
    '/users/:id',
    { schema: { params: userIdParams, response: { 200: profileResponse } } },
    async (request) => userService.profile(db, request.params.id, request.user, config.campusTimeZone),
  );
};
