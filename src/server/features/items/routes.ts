import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successResponse } from '#shared/schemas/auth.ts';
import {
  itemDetail,
  itemIdParams,
  itemInput,
  itemList,
  itemResponse,
  itemSearchQuery,
} from '#shared/schemas/items.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { itemService } from './service.ts';

export const itemRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (app, { db, config }) => {
  app.get(
    '/items',
    { schema: { querystring: itemSearchQuery, response: { 200: itemList } } },
    async (request) => itemService.search(db, request.query, config.campusTimeZone),
  );

  app.get(
    '/items/:id',
    { schema: { params: itemIdParams, response: { 200: itemDetail } } },
    async (request) => itemService.get(db, request.params.id, request.user),
  );

  app.post(
    '/items',
    {
      onRequest: async (request) => void requireUser(request),
      schema: { body: itemInput, response: { 201: itemResponse } },
    },
    async (request, reply) => {
      const item = await itemService.create(db, requireUser(request), request.body);
      return reply.status(201).send({ item });
    },
  );

  app.put(
    '/items/:id',
    {
      onRequest: async (request) => void requireUser(request),
      schema: { params: itemIdParams, body: itemInput, response: { 200: itemResponse } },
    },
    async (request) => ({
      item: await itemService.update(db, requireUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/items/:id',
    {
      onRequest: async (request) => void requireUser(request),
      schema: { params: itemIdParams, response: { 200: successResponse } },
    },
    async (request) => {
      await itemService.remove(db, requireUser(request).id, request.params.id);
      return { success: true as const };
    },
  );
};
