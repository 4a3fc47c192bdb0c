import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successResponse } from '#shared/schemas/auth.ts';
import { plainText } from '#shared/schemas/fields.ts';
import {
  billingHistoryResponse,
  clientConfig,
  paymentConfirmResponse,
  paymentMethodList,
  payWithSavedCardInput,
  savedPaymentMethod,
} from '#shared/schemas/payments.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import { requestLocale } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { paymentService } from './service.ts';

// Spec §7: GET /api/config, saved cards (/api/payment-methods…), GET /api/billing-history, and
// Stripe's webhook at POST /api/payments/webhook.

/**
 * A validation message written when zod writes the refusal: the error handler asks again in the
 * caller's language (plugins/errors.ts), so it comes out in theirs.
 */
const say = (message: MessageDescriptor) => () => i18n._(message);

const paymentMethodIdParams = z.object({ id: z.uuid({ error: say(msg`Payment method not found`) }) });
const setDefaultInput = z.object({
  isDefault: z.literal(true, { error: say(msg`isDefault must be true: choose the card to make default`) }),
});
const addPaymentMethodInput = z.object({
  // i18n-ignore: plainText takes text; this only answers a request whose setupIntentId is not text at all
  setupIntentId: plainText('setupIntentId is required')
    .trim()
    .min(1, { error: say(msg`setupIntentId is required`) })
    .max(200, { error: say(msg`setupIntentId is too long`) }),
});
const setupIntentResponse = z.object({ clientSecret: z.string(), setupIntentId: z.string() });

/** Stripe's events are small; this leaves room for the largest. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export const paymentRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  payments: PaymentProvider;
  jobs: JobQueue;
}> = async (app, { db, config, payments, jobs }) => {
  const deps = {
    db,
    payments,
    jobs,
    payment: config.payments,
    timeZone: config.campusTimeZone,
    fees: config.fees,
    log: app.log,
    adminEmails: config.adminEmails,
    appUrl: config.appUrl,
  };

  await app.register(
    signedInRoutes(async (app) => {
      app.get('/payment-methods', { schema: { response: { 200: paymentMethodList } } }, async (request) => ({
        paymentMethods: await paymentService.listMethods(db, request.signedInUser.id),
      }));

      app.post(
        '/payment-methods/setup-intent',
        { schema: { response: { 200: setupIntentResponse } } },
        async (request) => paymentService.createSetupIntent(deps, request.signedInUser),
      );

      app.post(
        '/payment-methods',
        {
          schema: {
            body: addPaymentMethodInput,
            response: { 201: z.object({ paymentMethod: savedPaymentMethod }) },
          },
        },
        async (request, reply) => {
          const paymentMethod = await paymentService.addFromSetupIntent(
            deps,
            request.signedInUser.id,
            request.body.setupIntentId,
          );
          return reply.status(201).send({ paymentMethod });
        },
      );

      app.put(
        '/payment-methods/:id',
        {
          schema: {
            params: paymentMethodIdParams,
            body: setDefaultInput,
            response: { 200: successResponse },
          },
        },
        async (request) => {
          await paymentService.setDefault(db, request.signedInUser.id, request.params.id);
          return { success: true as const };
        },
      );

      app.delete(
        '/payment-methods/:id',
        {
          schema: { params: paymentMethodIdParams, response: { 200: successResponse } },
        },
        async (request) => {
          await paymentService.removeMethod(deps, request.signedInUser.id, request.params.id);
          return { success: true as const };
        },
      );

      // Checkout with a saved card: authorises the Reserve dialog's intent without typing the card.
      app.post(
        '/payments/saved-card',
        {
          schema: { body: payWithSavedCardInput, response: { 200: paymentConfirmResponse } },
        },
        async (request) => paymentService.payWithSavedCard(deps, request.signedInUser.id, request.body),
      );

      app.get(
        '/billing-history',
        { schema: { response: { 200: billingHistoryResponse } } },
        async (request) => ({
          transactions: await paymentService.billingHistory(
            db,
            request.signedInUser.id,
            requestLocale(request),
          ),
        }),
      );
    }),
  );
  await app.register(
    publicRoutes(async (app) => {
      app.get('/config', { schema: { response: { 200: clientConfig } } }, async () =>
        paymentService.clientConfig(payments, config.fees),
      );

      // The signature covers the exact bytes Stripe sent, so this route alone keeps the body raw.
      await app.register(async (webhook) => {
        webhook.removeContentTypeParser('application/json');
        webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
          done(null, body),
        );
        webhook.post(
          '/payments/webhook',
          {
            // Stripe's servers call it, without an Origin; the signature is the proof (plugins/security.ts).
            config: { sameOrigin: false },
            bodyLimit: WEBHOOK_BODY_LIMIT,
            schema: { response: { 200: z.object({ received: z.literal(true) }) } },
          },
          async (request) => {
            const result = await paymentService.handleWebhook(
              { ...deps, log: request.log },
              config.stripe,
              Buffer.isBuffer(request.body) ? request.body : undefined,
              request.headers['stripe-signature'],
            );
            request.log.info(result, 'stripe webhook');
            return { received: true as const };
          },
        );
      });
    }),
  );
};
