import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import { plainText } from '#shared/schemas/fields.ts';
import {
  testAuthenticateInput,
  testCard,
  testConfirmInput,
  testConfirmResponse,
} from '#shared/schemas/payments.ts';
import type { TestPaymentProvider } from '../../adapters/payments/test-provider.ts';
import { notFound } from '../../errors.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';

// The test provider's browser-side confirmations (what Stripe.js does against Stripe): only
// registered when the test provider is the active one.

export const testPaymentRoutes = signedInRoutes<{ provider: TestPaymentProvider }>(
  async (app, { provider }) => {
    app.post(
      '/payments/test/confirm',
      // The test provider's own tables are in no cached answer.
      {
        config: { changesCachedAnswers: false },
        schema: { body: testConfirmInput, response: { 200: testConfirmResponse } },
      },
      async (request) => {
        // Only the borrower the intent was made for may pay it; one read of the intent for both.
        const confirmed = await provider.confirmPaymentIntent(
          request.body.paymentIntentId,
          request.body.card,
          request.signedInUser.id,
        );
        return {
          status: confirmed.status,
          paymentIntentId: confirmed.id,
          nextActionUrl: confirmed.nextActionUrl ?? null,
        };
      },
    );

    // The test bank's 3-D Secure page (web route /payments/test/authenticate) answers here.
    app.post(
      '/payments/test/authenticate',
      {
        config: { changesCachedAnswers: false },
        schema: { body: testAuthenticateInput, response: { 200: testConfirmResponse } },
      },
      async (request) => {
        const intent = await provider.retrievePaymentIntent(request.body.paymentIntentId);
        if (intent.metadata.borrowerId !== request.signedInUser.id) throw notFound(msg`No such payment.`);
        const answered = await provider.authenticatePaymentIntent(intent.id, request.body.approved);
        return { status: answered.status, paymentIntentId: answered.id, nextActionUrl: null };
      },
    );

    app.post(
      '/payments/test/confirm-setup',
      {
        schema: {
          body: z.object({ setupIntentId: plainText().min(1).max(200), card: testCard }),
          response: { 200: z.object({ status: z.literal('succeeded'), setupIntentId: z.string() }) },
        },
      },
      async (request) => {
        // Only the person the card setup was made for may complete it.
        const user = request.signedInUser;
        const customerId = await provider.ensureCustomer({ id: user.id, customerId: null });
        await provider.confirmSetupIntent(request.body.setupIntentId, request.body.card, customerId);
        return { status: 'succeeded' as const, setupIntentId: request.body.setupIntentId };
      },
    );
  },
);
