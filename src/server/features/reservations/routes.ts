import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { itemIdParams } from '#shared/schemas/items.ts';
import {
  availabilityResponse,
  declineInput,
  paymentIntentInput,
  paymentIntentResponse,
  reservationIdParams,
  reservationInput,
  reservationList,
  reservationResponse,
  statusUpdateInput,
} from '#shared/schemas/reservations.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { type ReservationDeps, reservationService } from './service.ts';

export const reservationRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  payments: PaymentProvider;
}> = async (app, { db, config, payments }) => {
  const deps: ReservationDeps = { db, payments, timeZone: config.campusTimeZone, log: app.log };
  const signedIn = {
    onRequest: async (request: Parameters<typeof requireUser>[0]) => void requireUser(request),
  };

  app.get(
    '/items/:id/availability',
    { schema: { params: itemIdParams, response: { 200: availabilityResponse } } },
    async (request) => reservationService.availability(deps, request.params.id),
  );

  app.post(
    '/create-payment-intent',
    { ...signedIn, schema: { body: paymentIntentInput, response: { 200: paymentIntentResponse } } },
    async (request) => reservationService.createPaymentIntent(deps, requireUser(request), request.body),
  );

  app.get(
    '/reservations',
    { ...signedIn, schema: { response: { 200: reservationList } } },
    async (request) => ({
      reservations: await reservationService.list(deps, requireUser(request).id),
    }),
  );

  app.post(
    '/reservations',
    { ...signedIn, schema: { body: reservationInput, response: { 201: reservationResponse } } },
    async (request, reply) => {
      const reservation = await reservationService.create(deps, requireUser(request), request.body);
      return reply.status(201).send({ success: true as const, reservation });
    },
  );

  app.put(
    '/reservations/:id',
    {
      ...signedIn,
      schema: {
        params: reservationIdParams,
        body: statusUpdateInput,
        response: { 200: reservationResponse },
      },
    },
    async (request) => ({
      success: true as const,
      reservation: await reservationService.updateStatus(
        deps,
        requireUser(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );

  app.post(
    '/reservations/:id/approve',
    { ...signedIn, schema: { params: reservationIdParams, response: { 200: reservationResponse } } },
    async (request) => ({
      success: true as const,
      reservation: await reservationService.approve(deps, requireUser(request), request.params.id),
    }),
  );

  app.post(
    '/reservations/:id/decline',
    {
      ...signedIn,
      schema: { params: reservationIdParams, body: declineInput, response: { 200: reservationResponse } },
    },
    async (request) => ({
      success: true as const,
      reservation: await reservationService.decline(
        deps,
        requireUser(request).id,
        request.params.id,
        request.body?.reason,
      ),
    }),
  );
};
