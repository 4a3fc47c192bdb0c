import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  extensionIdParams,
  extensionInput,
  extensionPaymentIntentInput,
  extensionResponse,
} from '#shared/schemas/extensions.ts';
import { paymentIntentResponse, reservationIdParams } from '#shared/schemas/reservations.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { requireUser } from '../../plugins/session.ts';
import { type ExtensionDeps, extensionService } from './service.ts';

// Issue 18 item 3: more days on a booking (decision 031).

export const extensionRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  payments: PaymentProvider;
  jobs: JobQueue;
}> = async (app, { db, config, payments, jobs }) => {
  const deps: ExtensionDeps = { db, payments, jobs, timeZone: config.campusTimeZone };
  const signedIn = {
    onRequest: async (request: Parameters<typeof requireUser>[0]) => void requireUser(request),
  };

  app.post(
    '/reservations/:id/extension-payment-intent',
    {
      ...signedIn,
      schema: {
        params: reservationIdParams,
        body: extensionPaymentIntentInput,
        response: { 200: paymentIntentResponse },
      },
    },
    async (request) =>
      extensionService.createPaymentIntent(deps, requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/reservations/:id/extensions',
    {
      ...signedIn,
      schema: { params: reservationIdParams, body: extensionInput, response: { 201: extensionResponse } },
    },
    async (request, reply) => {
      const extension = await extensionService.request(
        deps,
        requireUser(request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send({ success: true as const, extension });
    },
  );

  app.post(
    '/extensions/:id/approve',
    { ...signedIn, schema: { params: extensionIdParams, response: { 200: extensionResponse } } },
    async (request) => ({
      success: true as const,
      extension: await extensionService.approve(deps, requireUser(request), request.params.id),
    }),
  );

  app.post(
    '/extensions/:id/decline',
    { ...signedIn, schema: { params: extensionIdParams, response: { 200: extensionResponse } } },
    async (request) => ({
      success: true as const,
      extension: await extensionService.decline(deps, requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/extensions/:id/cancel',
    { ...signedIn, schema: { params: extensionIdParams, response: { 200: extensionResponse } } },
    async (request) => ({
      success: true as const,
      extension: await extensionService.cancel(deps, requireUser(request).id, request.params.id),
    }),
  );
};
