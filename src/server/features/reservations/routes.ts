import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { disputeChat } from '#shared/schemas/handovers.ts';
import { itemIdParams } from '#shared/schemas/items.ts';
import { paymentConfirmResponse } from '#shared/schemas/payments.ts';
import {
  availabilityResponse,
  claimDecisionInput,
  claimInput,
  claimQueue,
  completePaymentInput,
  completePaymentResponse,
  declineInput,
  disputeInput,
  fixCardInput,
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
import { moderatorRoutes, publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import type { JobQueue } from '../../jobs/queue.ts';
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
    fees: config.fees,
    payoutDelayMs: config.payments.payoutDelayMs,
    expiryHours: config.jobs.reservationExpiryHours,
    authoriseAheadDays: config.jobs.authoriseAheadDays,
    log: app.log,
    clock,
    storage,
    adminEmails: config.adminEmails,
  };

  // Deposit claims: the lender's "Report a problem", the borrower's answer, the moderator's decision.
  const one = { params: reservationIdParams, response: { 200: reservationResponse } };
  await app.register(
    publicRoutes(async (app) => {
      app.get(
        '/items/:id/availability',
        { schema: { params: itemIdParams, response: { 200: availabilityResponse } } },
        async (request) => reservationService.availability(deps, request.params.id),
      );
    }),
  );
  await app.register(
    signedInRoutes(async (app) => {
      app.post(
        '/create-payment-intent',
        // An authorisation is in no cached answer: the answer does not wait for an announcement.
        {
          config: { changesCachedAnswers: false },
          schema: { body: paymentIntentInput, response: { 200: paymentIntentResponse } },
        },
        async (request) => reservationService.createPaymentIntent(deps, request.signedInUser, request.body),
      );

      // Decision 062: the borrower fixes the card a far-ahead booking's off-session hold failed on.
      app.post(
        '/reservations/:id/card',
        {
          schema: {
            params: reservationIdParams,
            body: fixCardInput,
            response: { 200: paymentConfirmResponse },
          },
        },
        async (request) =>
          reservationService.fixCard(deps, request.signedInUser.id, request.params.id, request.body),
      );

      app.get('/reservations', { schema: { response: { 200: reservationList } } }, async (request) => ({
        reservations: await reservationService.list(deps, request.signedInUser.id),
      }));

      app.post(
        '/reservations',
        { schema: { body: reservationInput, response: { 201: reservationResponse } } },
        async (request, reply) => {
          const reservation = await reservationService.create(deps, request.signedInUser, request.body);
          return reply.status(201).send({ success: true as const, reservation });
        },
      );

      app.post(
        '/reservations/complete-payment',
        {
          schema: {
            body: completePaymentInput,
            response: { 200: completePaymentResponse, 201: completePaymentResponse },
          },
        },
        async (request, reply) => {
          const { reservation, created } = await reservationService.completePayment(
            deps,
            request.signedInUser,
            request.body.paymentIntentId,
          );
          return reply.status(created ? 201 : 200).send({ success: true as const, reservation, created });
        },
      );

      app.put(
        '/reservations/:id',
        {
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
            request.signedInUser.id,
            request.params.id,
            request.body,
          ),
        }),
      );

      app.post(
        '/reservations/:id/approve',
        { schema: { params: reservationIdParams, response: { 200: reservationResponse } } },
        async (request) => ({
          success: true as const,
          reservation: await reservationService.approve(deps, request.signedInUser, request.params.id),
        }),
      );

      app.post(
        '/reservations/:id/decline',
        {
          schema: { params: reservationIdParams, body: declineInput, response: { 200: reservationResponse } },
        },
        async (request) => ({
          success: true as const,
          reservation: await reservationService.decline(
            deps,
            request.signedInUser.id,
            request.params.id,
            request.body?.reason,
          ),
        }),
      );

      app.post('/reservations/:id/claim', { schema: { ...one, body: claimInput } }, async (request) => ({
        success: true as const,
        reservation: await reservationService.claim(
          deps,
          request.signedInUser.id,
          request.params.id,
          request.body,
        ),
      }));

      app.post('/reservations/:id/claim/accept', { schema: one }, async (request) => ({
        success: true as const,
        reservation: await reservationService.acceptClaim(deps, request.signedInUser.id, request.params.id),
      }));

      app.post(
        '/reservations/:id/claim/dispute',
        { schema: { ...one, body: disputeInput } },
        async (request) => ({
          success: true as const,
          reservation: await reservationService.dispute(
            deps,
            request.signedInUser.id,
            request.params.id,
            request.body,
          ),
        }),
      );
    }),
  );
  await app.register(
    moderatorRoutes(async (app) => {
      app.get('/admin/claims', { schema: { response: { 200: claimQueue } } }, async (request) =>
        reservationService.disputedClaims(deps, request.signedInUser.id),
      );

      // Decision 033: the chat of the two people, read-only, beside their sides and the handover photos.
      app.get(
        '/admin/claims/:id/chat',
        { schema: { params: reservationIdParams, response: { 200: disputeChat } } },
        async (request) => reservationService.disputeChat(deps, request.signedInUser.id, request.params.id),
      );

      app.post(
        '/admin/claims/:id/decide',
        { schema: { ...one, body: claimDecisionInput } },
        async (request) => ({
          success: true as const,
          reservation: await reservationService.resolveClaim(
            deps,
            request.signedInUser.id,
            request.params.id,
            request.body,
          ),
        }),
      );
    }),
  );
};
