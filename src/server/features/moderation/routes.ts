import { z } from 'zod';
import { askIdParams } from '#shared/schemas/asks.ts';
import { itemIdParams } from '#shared/schemas/items.ts';
import {
  askModerationResponse,
  itemModerationResponse,
  moderationActionInput,
  moderationNoteInput,
  reportDecisionInput,
  reportDetail,
  reportIdParams,
  reportQueue,
  reportQueueQuery,
  userModerationResponse,
} from '#shared/schemas/moderation.ts';
import { userIdParams } from '#shared/schemas/users.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { moderatorRoutes } from '../../http/route-scopes.ts';
import { moderationService } from './service.ts';

// /api/admin/*: moderators only. One hook guards the whole group: 401 signed out, 403 for everyone else.

export const moderationRoutes = moderatorRoutes<{
  db: Db;
  config: Config;
}>(async (app, { db, config }) => {
  const deps = { db, config };
  // Everything in these bodies is optional, so a bare POST (no body at all) is a plain action.
  const bare = <T extends z.ZodType>(schema: T) => z.preprocess((body) => body ?? {}, schema);
  const actionBody = bare(moderationActionInput);

  app.get(
    '/admin/reports',
    { schema: { querystring: reportQueueQuery, response: { 200: reportQueue } } },
    async (request) => moderationService.queue(deps, request.signedInUser.id, request.query),
  );

  app.get(
    '/admin/reports/:id',
    { schema: { params: reportIdParams, response: { 200: reportDetail } } },
    async (request) => moderationService.detail(db, request.signedInUser.id, request.params.id),
  );

  app.post(
    '/admin/reports/:id/notes',
    { schema: { params: reportIdParams, body: moderationNoteInput, response: { 201: reportDetail } } },
    async (request, reply) => {
      const admin = request.signedInUser;
      const detail = await moderationService.addNote(db, admin.id, request.params.id, request.body.note);
      return reply.status(201).send(detail);
    },
  );

  for (const [path, status] of [
    ['resolve', 'resolved'],
    ['dismiss', 'dismissed'],
  ] as const) {
    app.post(
      `/admin/reports/:id/${path}`,
      {
        schema: {
          params: reportIdParams,
          body: bare(reportDecisionInput),
          response: { 200: reportDetail },
        },
      },
      async (request) =>
        moderationService.decide(
          db,
          request.signedInUser.id,
          request.params.id,
          status,
          request.body.adminNotes,
        ),
    );
  }

  app.post(
    '/admin/items/:id/hide',
    {
      schema: { params: itemIdParams, body: actionBody, response: { 200: itemModerationResponse } },
    },
    async (request) => ({
      item: await moderationService.hideItem(db, request.signedInUser.id, request.params.id, request.body),
    }),
  );

  app.post(
    '/admin/asks/:id/hide',
    {
      schema: {
        params: askIdParams,
        body: actionBody,
        response: { 200: askModerationResponse },
      },
    },
    async (request) => ({
      ask: await moderationService.hideAsk(db, request.signedInUser.id, request.params.id, request.body),
    }),
  );

  app.post(
    '/admin/asks/:id/unhide',
    {
      schema: {
        params: askIdParams,
        body: actionBody,
        response: { 200: askModerationResponse },
      },
    },
    async (request) => ({
      ask: await moderationService.unhideAsk(deps, request.signedInUser.id, request.params.id, request.body),
    }),
  );

  app.post(
    '/admin/items/:id/unhide',
    {
      schema: { params: itemIdParams, body: actionBody, response: { 200: itemModerationResponse } },
    },
    async (request) => ({
      item: await moderationService.unhideItem(db, request.signedInUser.id, request.params.id, request.body),
    }),
  );

  app.post(
    '/admin/users/:id/suspend',
    {
      schema: { params: userIdParams, body: actionBody, response: { 200: userModerationResponse } },
    },
    async (request) => ({
      user: await moderationService.suspendUser(
        deps,
        request.signedInUser.id,
        request.params.id,
        request.body,
      ),
    }),
  );

  app.post(
    '/admin/users/:id/unsuspend',
    {
      schema: { params: userIdParams, body: actionBody, response: { 200: userModerationResponse } },
    },
    async (request) => ({
      user: await moderationService.unsuspendUser(
        deps,
        request.signedInUser.id,
        request.params.id,
        request.body,
      ),
    }),
  );
});
