import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { disputeChat } from '#shared/schemas/handovers.ts';
import { itemIdParams } from '#shared/schemas/items.ts';
import {
  availabilityResponse,
  claimDecisionInput,
  claimInput,
  claimQueue,
  completePaymentInput,
  completePaymentResponse,
  declineInput,
  disputeInput,
  paymentIntentInput,
  paymentIntentResponse,
  reservationIdParams,
  reservationInput,
  reservationList,
  reservationResponse,
  statusUpdateInput,
} from '#shared/schemas/reservations.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { requireAdmin, requireUser } from '../../plugins/session.ts';
import { type ReservationDeps, reservationService } from './service.ts';

export const reservationRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  payments: PaymentProvider;
  jobs: JobQueue;
  clock?: Clock;
  storage: Storage;
}> = async (app, { db, config, payments, jobs, clock, storage }) => {
  const deps: ReservationDeps = {
    db,
    payments,
    jobs,
    timeZone: config.campusTimeZone,
    expiryHours: config.jobs.reservationExpiryHours,
    log: app.log,
    clock,
    storage,
    adminEmails: config.adminEmails,
  };
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

  app.post(
    '/reservations/complete-payment',
    {
      ...signedIn,
      schema: {
        body: completePaymentInput,
        response: { 200: completePaymentResponse, 201: completePaymentResponse },
      },
    },
    async (request, reply) => {
      const { reservation, created } = await reservationService.completePayment(
        deps,
        requireUser(request),
        request.body.paymentIntentId,
      );
      return reply.status(created ? 201 : 200).send({ success: true as const, reservation, created });
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

  // Issue 17 items 2 and 5: the lender's "Report a problem", the borrower's answer, the moderator's decision.
  const one = { params: reservationIdParams, response: { 200: reservationResponse } };
  app.post(
    '/reservations/:id/claim',
    { ...signedIn, schema: { ...one, body: claimInput } },
    async (request) => ({
      success: true as const,
      reservation: await reservationService.claim(
        deps,
        requireUser(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );

  app.post('/reservations/:id/claim/accept', { ...signedIn, schema: one }, async (request) => ({
    success: true as const,
    reservation: await reservationService.acceptClaim(deps, requireUser(request).id, request.params.id),
  }));

  app.post(
    '/reservations/:id/claim/dispute',
    { ...signedIn, schema: { ...one, body: disputeInput } },
    async (request) => ({
      success: true as const,
      reservation: await reservationService.dispute(
        deps,
        requireUser(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );

  const moderator = {
    onRequest: async (request: Parameters<typeof requireAdmin>[0]) => void requireAdmin(request),
  };
  app.get('/admin/claims', { ...moderator, schema: { response: { 200: claimQueue } } }, async (request) =>
    reservationService.disputedClaims(deps, requireAdmin(request).id),
  );

  // Decision 033: the chat of the two people, read-only, beside their sides and the handover photos.
  app.get(
    '/admin/claims/:id/chat',
    { ...moderator, schema: { params: reservationIdParams, response: { 200: disputeChat } } },
    async (request) => reservationService.disputeChat(deps, requireAdmin(request).id, request.params.id),
  );

  app.post(
    '/admin/claims/:id/decide',
    { ...moderator, schema: { ...one, body: claimDecisionInput } },
    async (request) => ({
      success: true as const,
      reservation: await reservationService.resolveClaim(
        deps,
        requireAdmin(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );
};
