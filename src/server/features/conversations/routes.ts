import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { conversationService } from './service.ts';

export const conversationRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Every chat call is about the signed-in person's own conversations.
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  app.get('/conversations', { schema: { response: { 200: conversationList } } }, async (request) => ({
    conversations: await conversationService.list(db, requireUser(request).id),
  }));

  app.get(
    '/conversations/unread-count',
    { schema: { response: { 200: unreadCountResponse } } },
    async (request) => ({ count: await conversationService.unreadCount(db, requireUser(request).id) }),
  );

  app.post(
    '/conversations',
    { schema: { body: startConversationInput, response: { 200: conversationResponse } } },
    async (request) => ({
      conversation: await conversationService.start(db, requireUser(request).id, request.body.itemId),
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
    async (request) =>
      conversationService.messages(db, requireUser(request).id, request.params.id, request.query),
  );

  app.post(
    '/conversations/:id/read',
    { schema: { params: conversationIdParams, response: { 200: successResponse } } },
    async (request) => {
      await conversationService.markRead(db, requireUser(request).id, request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/conversations/:id/messages',
    {
      schema: { params: conversationIdParams, body: messageInput, response: { 201: messageResponse } },
    },
    async (request, reply) => {
      const message = await conversationService.sendMessage(
        db,
        requireUser(request).id,
        request.params.id,
        request.body.content,
      );
      return reply.status(201).send({ message });
    },
  );
};
