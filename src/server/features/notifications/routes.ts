import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successResponse } from '#shared/schemas/auth.ts';
import {
  markAllReadResponse,
  notificationIdParams,
  notificationList,
} from '#shared/schemas/notifications.ts';
import { type ReadCaches, rememberedJson, sendJson } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { notificationService } from './service.ts';

export const notificationRoutes: FastifyPluginAsyncZod<{ db: Db; caches: ReadCaches }> = async (
  app,
  { db, caches },
) => {
  // Everything here is about the signed-in person's own notifications.
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  app.get('/notifications', { schema: { response: { 200: notificationList } } }, async (request) => ({
    notifications: await notificationService.list(db, requireUser(request).id),
  }));

  // The header polls this in every tab (spec §8); remembered until a notification or a read mark for
  // this person is announced (read-caches.ts).
  app.get(
    '/notifications/unread',
    { schema: { response: { 200: notificationList } } },
    async (request, reply) => {
      const userId = requireUser(request).id;
      const json = await rememberedJson(caches.notificationsUnread, userId, notificationList, async () => ({
        notifications: await notificationService.list(db, userId, true),
      }));
      return sendJson(reply, json);
    },
  );

  app.post(
    '/notifications/read-all',
    { schema: { response: { 200: markAllReadResponse } } },
    async (request) => ({
      success: true as const,
      count: await notificationService.markAllRead(db, requireUser(request).id),
    }),
  );

  app.post(
    '/notifications/:id/read',
    { schema: { params: notificationIdParams, response: { 200: successResponse } } },
    async (request) => {
      await notificationService.markRead(db, requireUser(request).id, request.params.id);
      return { success: true as const };
    },
  );
};
