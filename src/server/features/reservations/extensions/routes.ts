import {
  extensionIdParams,
  extensionInput,
  extensionPaymentIntentInput,
  extensionResponse,
} from '#shared/schemas/extensions.ts';
import { paymentIntentResponse, reservationIdParams } from '#shared/schemas/reservations.ts';
import type { PaymentProvider } from '../../../adapters/payments/provider.ts';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import { signedInRoutes } from '../../../http/route-scopes.ts';
import type { JobQueue } from '../../../jobs/queue.ts';
import type { ExtensionDeps } from '../deps.ts';
import { extensionService } from './service.ts';

// More days on a booking (decision 031).

export const extensionRoutes = signedInRoutes<{
  db: Db;
  config: Config;
  payments: PaymentProvider;
  jobs: JobQueue;
}>(async (app, { db, config, payments, jobs }) => {
  const deps: ExtensionDeps = { db, payments, jobs, timeZone: config.campusTimeZone, fees: config.fees };

  app.post(
    '/reservations/:id/extension-payment-intent',
    {
      schema: {
        params: reservationIdParams,
        body: extensionPaymentIntentInput,
        response: { 200: paymentIntentResponse },
      },
    },
    async (request) =>
      extensionService.createPaymentIntent(deps, request.signedInUser, request.params.id, request.body),
  );

  app.post(
    '/reservations/:id/extensions',
    {
      schema: { params: reservationIdParams, body: extensionInput, response: { 201: extensionResponse } },
    },
    async (request, reply) => {
      const extension = await extensionService.request(
        deps,
        request.signedInUser,
        request.params.id,
        request.body,
      );
      return reply.status(201).send({ success: true as const, extension });
    },
  );

  app.post(
    '/extensions/:id/approve',
    { schema: { params: extensionIdParams, response: { 200: extensionResponse } } },
    async (request) => ({
      success: true as const,
      extension: await extensionService.approve(deps, request.signedInUser, request.params.id),
    }),
  );

  app.post(
    '/extensions/:id/decline',
    { schema: { params: extensionIdParams, response: { 200: extensionResponse } } },
    async (request) => ({
      success: true as const,
      extension: await extensionService.decline(deps, request.signedInUser.id, request.params.id),
    }),
  );

  app.post(
    '/extensions/:id/cancel',
    { schema: { params: extensionIdParams, response: { 200: extensionResponse } } },
    async (request) => ({
      success: true as const,
      extension: await extensionService.cancel(deps, request.signedInUser.id, request.params.id),
    }),
  );
});
