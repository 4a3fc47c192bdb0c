import { msg } from '@lingui/core/macro';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { campusToday } from '#shared/calendar.ts';
import { successResponse } from '#shared/schemas/auth.ts';
import {
  itemDetail,
  itemIdParams,
  itemInput,
  itemList,
  itemResponse,
  itemSearchQuery,
} from '#shared/schemas/items.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import {
  answerTags,
  type CachedAnswer,
  catalogueTags,
  listTags,
  type ReadCaches,
  sendJson,
  toJson,
} from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import { publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import { type ItemDeps, itemService } from './service.ts';

export const itemRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  caches: ReadCaches;
  storage: Storage;
}> = async (app, { db, config, caches, storage }) => {
  const itemDeps: ItemDeps = { db, storage, timeZone: config.campusTimeZone };
  await app.register(
    publicRoutes(async (app) => {
      // Home, Browse and search: the same answer for everyone who asks the same question on the same
      // campus day, remembered until an item of its campus changes, one goes out with a borrower, or an
      // owner's name or standing changes (read-caches.ts).
      app.get(
        '/items',
        { config: { public: true }, schema: { querystring: itemSearchQuery, response: { 200: itemList } } },
        async (request, reply) =>
          sendJson(reply, await itemListJson(db, caches, request.query, config.campusTimeZone)),
      );

      app.get(
        '/items/:id',
        { config: { public: true }, schema: { params: itemIdParams, response: { 200: itemDetail } } },
        async (request, reply) => {
          const { id } = request.params;
          const viewer = request.user;
          // Moderators get the moderation details, always fresh.
          if (viewer?.isAdmin) return itemService.get(db, id, viewer);
          // Everyone else sees the public page. One that is hidden, or missing, is remembered as such;
          // its owner may still open a hidden one, so a signed-in visitor then asks the service.
          const json = await publicItemJson(db, caches, id);
          if (json !== undefined) return sendJson(reply, json);
          if (!viewer) throw notFound(msg`Item not found.`);
          return itemService.get(db, id, viewer);
        },
      );
    }),
  );
  await app.register(
    signedInRoutes(async (app) => {
      app.post(
        '/items',
        {
          schema: { body: itemInput, response: { 201: itemResponse } },
        },
        async (request, reply) => {
          const item = await itemService.create(itemDeps, request.signedInUser, request.body);
          return reply.status(201).send({ item });
        },
      );

      app.put(
        '/items/:id',
        {
          schema: { params: itemIdParams, body: itemInput, response: { 200: itemResponse } },
        },
        async (request) => ({
          item: await itemService.update(itemDeps, request.signedInUser.id, request.params.id, request.body),
        }),
      );

      app.delete(
        '/items/:id',
        {
          schema: { params: itemIdParams, response: { 200: successResponse } },
        },
        async (request) => {
          await itemService.remove(db, request.signedInUser.id, request.params.id);
          return { success: true as const };
        },
      );
    }),
  );
};

/**
 * GET /api/items's JSON for a validated query, through the catalogue cache: the same answer for
 * everyone who asks the same question on the same campus day. Pages rendered on the server use it too.
 */
export async function itemListJson(
  db: Db,
  caches: ReadCaches,
  query: z.output<typeof itemSearchQuery>,
  timeZone: string,
): Promise<string> {
  const today = campusToday(timeZone).date;
  const answer = await caches.catalogue.get(
    `items:${today}:${JSON.stringify(query)}`,
    async () => ({
      json: toJson(itemList, await itemService.search(db, query, timeZone)),
      tags: listTags(query.campus),
    }),
    answerTags,
  );
  return (answer as { json: string }).json;
}

/**
 * GET /api/items/:id's JSON as a visitor gets it, through the catalogue cache; undefined when the item
 * is hidden, missing, or its owner suspended. The item page rendered on the server uses it too.
 */
export async function publicItemJson(db: Db, caches: ReadCaches, id: string): Promise<string | undefined> {
  const answer = await caches.catalogue.get(`item:${id}`, () => publicItemPage(db, id), answerTags);
  return 'json' in answer ? answer.json : undefined;
}

/**
 * Remembered until the item, its owner's name or rating, or its reviews (and their writers' names)
 * change.
 */
async function publicItemPage(db: Db, id: string): Promise<CachedAnswer> {
  try {
    const detail = await itemService.get(db, id, null);
    const people = [detail.item.userId, ...detail.reviews.map((review) => review.reviewer.id)];
    return {
      json: toJson(itemDetail, detail),
      tags: [
        catalogueTags.item(id),
        catalogueTags.rating(detail.item.userId),
        ...new Set(people.map(catalogueTags.user)),
      ],
    };
  } catch (error) {
    // Hidden, missing, or its owner suspended: a change to the item, or to an owner's standing
    // (announced to every list too), may reveal it.
    if (error instanceof AppError && error.statusCode === 404) {
      return { missing: true, tags: [catalogueTags.item(id), catalogueTags.everyList] };
    }
    throw error;
  }
}
