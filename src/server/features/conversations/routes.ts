import { successResponse } from '#shared/schemas/auth.ts';
import {
  conversationIdParams,
  conversationList,
  conversationResponse,
  messageInput,
  messageResponse,
  messagesPage,
  messagesPageQuery,
  startConversationInput,
  unreadCountResponse,
} from '#shared/schemas/chat.ts';
import { reservationIdParams } from '#shared/schemas/reservations.ts';
import { dropAfterMessage, type ReadCaches, rememberedUnread } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import { sendJson } from '../../http/json-answers.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { requestLocale } from '../../i18n.ts';
import { type ChatSendLimit, SendingTooFast } from './send-limit.ts';
import { conversationService } from './service.ts';

// Every chat call is about the signed-in person's own conversations.
export const conversationRoutes = signedInRoutes<{
  db: Db;
  caches: ReadCaches;
  sendLimit: ChatSendLimit;
}>(async (app, { db, caches, sendLimit }) => {
  app.get('/conversations', { schema: { response: { 200: conversationList } } }, async (request) => ({
    conversations: await conversationService.list(db, request.signedInUser.id),
  }));

  app.get(
    '/conversations/unread-count',
    { schema: { response: { 200: unreadCountResponse } } },
    // Every open tab polls this (spec §8); the answer is remembered until a message or a read mark
    // for this person is announced (read-caches.ts).
    async (request, reply) => {
      const userId = request.signedInUser.id;
      const answer = await rememberedUnread(caches.chatUnread, userId, unreadCountResponse, async () => ({
        count: await conversationService.unreadCount(db, userId),
      }));
      return sendJson(request, reply, answer);
    },
  );

  app.post(
    '/conversations',
    { schema: { body: startConversationInput, response: { 200: conversationResponse } } },
    async (request) => ({
      conversation: await conversationService.start(db, request.signedInUser.id, request.body.itemId),
    }),
  );

  // 'Message {name}' on a reservation card, for the borrower and the lender alike.
  app.post(
    '/reservations/:id/conversation',
    { schema: { params: reservationIdParams, response: { 200: conversationResponse } } },
    async (request) => ({
      conversation: await conversationService.startForReservation(
        db,
        request.signedInUser.id,
        request.params.id,
      ),
    }),
  );

  app.get(
    '/conversations/:id/messages',
    {
      schema: {
        params: conversationIdParams,
        querystring: messagesPageQuery,
        response: { 200: messagesPage },
      },
    },
    async (request) => {
      const userId = request.signedInUser.id;
      const page = await conversationService.messages(db, userId, request.params.id, request.query);
      // Reading the newest page marks it read: the next unread poll must not answer from before.
      caches.chatUnread.delete(userId);
      return page;
    },
  );

  app.post(
    '/conversations/:id/read',
    // A read mark changes only its reader's unread count, dropped at once (http/session.ts).
    {
      config: { changesCachedAnswers: false },
      schema: { params: conversationIdParams, response: { 200: successResponse } },
    },
    async (request) => {
      await conversationService.markRead(db, request.signedInUser.id, request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/conversations/:id/messages',
    {
      // A message changes no cached answer but its recipient's unread count, dropped below and by the
      // announcement; its sender's counts stay as they were.
      config: { changesCachedAnswers: false, changesWritersUnread: false },
      schema: { params: conversationIdParams, body: messageInput, response: { 201: messageResponse } },
    },
    async (request, reply) => {
      const userId = request.signedInUser.id;
      let sent: Awaited<ReturnType<typeof conversationService.sendMessage>>;
      try {
        // One budget per person across HTTP and all their sockets.
        sent = await sendLimit.take(userId, () =>
          conversationService.sendMessage(
            db,
            userId,
            request.params.id,
            request.body.content,
            requestLocale(request),
          ),
        );
      } catch (error) {
        if (error instanceof SendingTooFast) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
      const { message, recipientId } = sent;
      dropAfterMessage(caches, recipientId);
      return reply.status(201).send({ message });
    },
  );
});
