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
import { toJson } from '../../cache/answer-json.ts';
import {
  answerTags,
  type CachedAnswer,
  catalogueTags,
  listTags,
  type ReadCaches,
  searchTags,
} from '../../cache/read-caches.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import { sendJson } from '../../http/json-answers.ts';
import { publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { newestFirstPage } from './new-listings.ts';
import { searchesToldOf } from './searches-told.ts';
import { type ItemDeps, itemService } from './service.ts';

export const itemRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  caches: ReadCaches;
  storage: Storage;
  jobs: JobQueue;
}> = async (app, { db, config, caches, storage, jobs }) => {
  const itemDeps: ItemDeps = {
    db,
    storage,
    timeZone: config.campusTimeZone,
    jobs,
    matchSavedSearches: config.savedSearches.matching,
  };
  await app.register(
    publicRoutes(async (app) => {
      // Home, Browse and search: the same answer for everyone who asks the same question on the same
      // campus day, remembered until an item of its campus changes, one goes out with a borrower, or an
      // owner's name or standing changes (read-caches.ts).
      app.get(
        '/items',
        // Home, Browse and search: the catalogue, which DATABASE_REPLICA_URL may answer (http/db-lanes.ts).
        {
          config: { public: true, replica: true },
          schema: { querystring: itemSearchQuery, response: { 200: itemList } },
        },
        async (request, reply) =>
          sendJson(
            request,
            reply,
            await itemListAnswer(db, caches, request.query, config.campusTimeZone, request.user?.id),
          ),
      );

      app.get(
        '/items/:id',
        {
          config: { public: true, replica: true },
          schema: { params: itemIdParams, response: { 200: itemDetail } },
        },
        async (request, reply) => {
          const { id } = request.params;
          const viewer = request.user;
          // Moderators get the moderation details, always fresh.
          if (viewer?.isAdmin) return itemService.get(db, id, viewer);
          // Everyone else sees the public page. One that is hidden, or missing, is remembered as such;
          // its owner may still open a hidden one, so a signed-in visitor then asks the service.
          const answer = await publicItemAnswer(db, caches, id, viewer?.id);
          if ('json' in answer) return sendJson(request, reply, answer);
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
 * A list is remembered until an item of its campus and category changes (or goes out, or an owner's
 * name or standing changes); a search until an item it shows or its words match changes (decision 076),
 * or, with a word the vocabulary corrected, until it expires (decision 049).
 * The count is asked apart, once per filter whatever the page, and not at all for Home (skipTotal).
 * `reader`: the signed-in person asking, who never reads an answer their own write made stale.
 */
export async function itemListJson(
  db: Db,
  caches: ReadCaches,
  query: z.output<typeof itemSearchQuery>,
  timeZone: string,
  reader?: string,
): Promise<string> {
  return (await itemListAnswer(db, caches, query, timeZone, reader)).json;
}

/** itemListJson's remembered answer itself, which keeps its compressed forms (http/json-answers.ts). */
async function itemListAnswer(
  db: Db,
  caches: ReadCaches,
  query: z.output<typeof itemSearchQuery>,
  timeZone: string,
  reader?: string,
): Promise<{ json: string }> {
  const today = campusToday(timeZone).date;
  const typed = itemService.searchWords(query);
  const searches = typed.length > 0;
  // A search is answered for its words as the catalogue knows them, which is what it finds: a mistyped
  // search ("drll") shares the answer of the words it means ("drill"), and is told as they are.
  const words = searches ? await itemService.knownWords(db, typed) : [];
  const asked = searches ? { ...query, searchQuery: words.join(' ') } : query;
  // Told of every item its words match (searches-told.ts) before it is computed, or not at all.
  const told = searches ? await searchesToldOf(caches)?.tell(words, query.campus) : undefined;
  const answer = await caches.catalogue.get(
    // Told or not is part of the key: a search first asked before the catalogue knew its words is
    // remembered untold (30 s); once they are known, it is asked again, told.
    `items:${today}:${told ? 'told:' : ''}${JSON.stringify(asked)}`,
    async () => {
      const since = caches.counts.invalidations;
      const countKey = countKeyOf(today, asked, told);
      // A search's page counts its own candidates, and so does a list's when its count is not
      // remembered (one statement, not two): the count is asked after the page and, when nobody
      // remembered it meanwhile, taken from it. A list whose count is remembered reads only its page.
      const withCount = !query.skipTotal && !searches && !caches.counts.holds(countKey);
      const day = campusToday(timeZone);
      const newestFirst = !searches && (query.sort ?? 'newest') === 'newest';
      // A later page newest first reads the items before it too, to take new listings in place.
      const later = newestFirst && query.page > 1;
      const {
        counted: pageCount,
        before,
        ...found
      } = await itemService.findPage(db, asked, timeZone, { withCount, later });
      const counted = query.skipTotal
        ? undefined
        : await countJson(
            db,
            caches,
            countKey,
            asked,
            timeZone,
            reader,
            told,
            pageCount && { ...pageCount, since },
          );
      const ids = found.items.map((item) => item.id);
      // A search's count is dropped with the items any of its pages showed, as the pages are.
      if (searches && counted) caches.counts.addTags(countKey, searchTags(ids), since);
      const count: { total?: number; totalCapped?: boolean } = counted ? JSON.parse(counted) : {};
      // A page newest first whose total (if any) its own statement counted takes a new listing in
      // place (new-listings.ts): a first page as it is, a later one with the items before it.
      const countedWithPage =
        pageCount !== undefined &&
        count.total === pageCount.total &&
        count.totalCapped === pageCount.totalCapped;
      const json = toJson(itemList, { ...found, ...count });
      const revisable =
        newestFirst && (query.page === 1 || before !== undefined) && (query.skipTotal || countedWithPage);
      const page =
        revisable &&
        newestFirstPage(json, found.items, before, {
          today: day,
          availableNow: Boolean(query.availableNow),
          limit: query.limit,
          counted: !query.skipTotal,
        });
      return {
        json,
        tags: searches ? searchTags(ids, told) : listTags(asked),
        ...(page ? { newestFirst: page } : {}),
      };
    },
    answerTags,
    // Lists and searches queue apart from item pages and profiles: a burst of slow searches never
    // holds up a quick item page. A list is kept until a change announced to it, and so is a search
    // told of the items its words match; any other search also expires, as a new listing it would now
    // find is announced to the lists alone.
    { reader, lane: 'lists', announced: !searches || told !== undefined },
  );
  return answer as { json: string };
}

/** A count's key: the query without its page, its size, its order or whether it wants the count. */
function countKeyOf(today: string, query: z.output<typeof itemSearchQuery>, told: string | undefined) {
  const { page: _page, limit: _limit, skipTotal: _skip, sort: _sort, ...filter } = query;
  return `count:${today}:${told ? 'told:' : ''}${JSON.stringify(filter)}`;
}

/**
 * `{ total, totalCapped }` as JSON, counted once per filter until a change it could alter; `known`: the
 * count a page has just read (when the count cache's invalidation number was `since`), used when none
 * is remembered, and not kept if something it counts changed since.
 */
async function countJson(
  db: Db,
  caches: ReadCaches,
  key: string,
  query: z.output<typeof itemSearchQuery>,
  timeZone: string,
  reader: string | undefined,
  /** A search's tag as told of the items its words match (searches-told.ts). */
  told: string | undefined,
  known?: { total: number; totalCapped: boolean; since: number },
): Promise<string> {
  const search = itemService.searches(query);
  const answer = await caches.counts.get(
    key,
    async () => ({
      json: JSON.stringify(
        known
          ? { total: known.total, totalCapped: known.totalCapped }
          : await itemService.count(db, query, timeZone),
      ),
      // A search's count is tagged by its pages' items as they are computed (addTags above).
      tags: search ? searchTags([], told) : listTags(query),
    }),
    answerTags,
    // A list's count changes only with an announced change, and a told search's with a change to an
    // item its words match; another search's also with a new listing it would now find.
    { reader, announced: !search || told !== undefined, ...(known ? { readSince: known.since } : {}) },
  );
  return (answer as { json: string }).json;
}

/**
 * GET /api/items/:id's JSON as a visitor gets it, through the catalogue cache; undefined when the item
 * is hidden, missing, or its owner suspended. The item page rendered on the server uses it too.
 */
export async function publicItemJson(
  db: Db,
  caches: ReadCaches,
  id: string,
  reader?: string,
): Promise<string | undefined> {
  const answer = await publicItemAnswer(db, caches, id, reader);
  return 'json' in answer ? answer.json : undefined;
}

/** publicItemJson's remembered answer itself, which keeps its compressed forms (http/json-answers.ts). */
function publicItemAnswer(db: Db, caches: ReadCaches, id: string, reader?: string): Promise<CachedAnswer> {
  return caches.catalogue.get(`item:${id}`, () => publicItemPage(db, id), answerTags, {
    reader,
    announced: true,
  });
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
