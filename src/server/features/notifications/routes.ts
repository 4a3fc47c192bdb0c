import { successResponse } from '#shared/schemas/auth.ts';
import {
  markAllReadResponse,
  notificationIdParams,
  notificationList,
} from '#shared/schemas/notifications.ts';
import { type ReadCaches, rememberedUnread, unreadNotificationsKey } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import { sendJson } from '../../http/json-answers.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { requestLocale } from '../../i18n.ts';
import { notificationService } from './service.ts';

export const notificationRoutes = signedInRoutes<{ db: Db; caches: ReadCaches }>(
  async (app, { db, caches }) => {
    // Everything here is about the signed-in person's own notifications, written in their language of
    // the moment (the request's), whatever it was when each was sent.

    app.get('/notifications', { schema: { response: { 200: notificationList } } }, async (request) => ({
      notifications: await notificationService.list(
        db,
        request.signedInUser.id,
        false,
        requestLocale(request),
      ),
    }));

    // The header polls this in every tab (spec §8); remembered until a notification or a read mark for
    // this person is announced (read-caches.ts).
    app.get(
      '/notifications/unread',
      { schema: { response: { 200: notificationList } } },
      async (request, reply) => {
        const userId = request.signedInUser.id;
        const locale = requestLocale(request);
        const key = unreadNotificationsKey(userId, locale);
        const answer = await rememberedUnread(
          caches.notificationsUnread,
          key,
          notificationList,
          async () => ({
            notifications: await notificationService.list(db, userId, true, locale),
          }),
        );
        return sendJson(request, reply, answer);
      },
    );

    app.post(
      '/notifications/read-all',
      // Read marks change only their reader's unread count, dropped at once (http/session.ts).
      { config: { changesCachedAnswers: false }, schema: { response: { 200: markAllReadResponse } } },
      async (request) => ({
        success: true as const,
        count: await notificationService.markAllRead(db, request.signedInUser.id),
      }),
    );

    app.post(
      '/notifications/:id/read',
      {
        config: { changesCachedAnswers: false },
        schema: { params: notificationIdParams, response: { 200: successResponse } },
      },
      async (request) => {
        await notificationService.markRead(db, request.signedInUser.id, request.params.id);
        return { success: true as const };
      },
    );
  },
);
