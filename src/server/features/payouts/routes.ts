import { z } from 'zod';
import {
  payoutAccountView,
  payoutLinkResponse,
  payoutProblemParams,
  payoutProblemsResponse,
  payoutRetryResponse,
  payoutsResponse,
  testOnboardingInput,
  testOnboardingResponse,
} from '#shared/schemas/payouts.ts';
import { TestPaymentProvider } from '../../adapters/payments/test-provider.ts';
import type { Db } from '../../db/client.ts';
import { moderatorRoutes, publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { connectEventService } from './connect-events.ts';
import { type PayoutDeps, payoutService } from './service.ts';
import { transferService } from './transfers.ts';

// Decision 056: GET /api/payouts (the lender's own account, totals and transfers), onboarding
// (POST /api/payouts/onboarding → {url}; its refresh address mints a new link), the account read again on
// the return from onboarding, the Express dashboard link, and the test provider's onboarding answers.

export const payoutRoutes = signedInRoutes<{ deps: PayoutDeps }>(async (app, { deps }) => {
  app.get('/payouts', { schema: { response: { 200: payoutsResponse } } }, async (request) =>
    payoutService.overview(deps.db, request.signedInUser.id),
  );

  app.post('/payouts/onboarding', { schema: { response: { 200: payoutLinkResponse } } }, async (request) =>
    payoutService.startOnboarding(deps, request.signedInUser),
  );

  // The provider sends the lender here when a link expired or was used: a new one, straight away.
  app.get('/payouts/onboarding/refresh', async (request, reply) => {
    const { url } = await payoutService.startOnboarding(deps, request.signedInUser);
    return reply.redirect(url, 303);
  });

  // The return from onboarding proves nothing by itself: the account is read from the provider.
  app.post(
    '/payouts/account/refresh',
    { schema: { response: { 200: payoutAccountView } } },
    async (request) => payoutService.refreshOwn(deps, request.signedInUser.id),
  );

  app.post('/payouts/dashboard', { schema: { response: { 200: payoutLinkResponse } } }, async (request) =>
    payoutService.dashboardLink(deps, request.signedInUser.id),
  );

  const { payments } = deps;
  if (payments instanceof TestPaymentProvider) {
    // The test provider's onboarding page (web route /payouts/test/onboarding) answers here.
    app.post(
      '/payouts/test/onboarding',
      { schema: { body: testOnboardingInput, response: { 200: testOnboardingResponse } } },
      async (request) => ({
        account: await payoutService.answerTestOnboarding(
          { ...deps, payments },
          request.signedInUser.id,
          request.body.accountId,
          request.body.outcome,
        ),
      }),
    );
  }
});

/** A webhook body is a Stripe event: a few kilobytes. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

// Decision 061: Stripe's Connect webhook at POST /api/webhooks/connect, with its own signing secret
// (STRIPE_CONNECT_WEBHOOK_SECRET): events on lenders' connected accounts.
export const connectWebhookRoutes = publicRoutes<{ deps: PayoutDeps; secret: string | null }>(
  async (app, { deps, secret }) => {
    // The signature covers the exact bytes Stripe sent, so this route keeps the body raw.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      '/webhooks/connect',
      {
        // Stripe's servers call it, without an Origin; the signature is the proof (plugins/security.ts).
        config: { sameOrigin: false },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: { response: { 200: z.object({ received: z.literal(true) }) } },
      },
      async (request) => {
        const result = await connectEventService.handleWebhook(
          deps,
          secret,
          Buffer.isBuffer(request.body) ? request.body : undefined,
          request.headers['stripe-signature'],
        );
        request.log.info(result, 'stripe connect webhook');
        return { received: true as const };
      },
    );
  },
);

/**
 * Moderators (/admin/payments): transfers and reversals that failed on every retry, and "Try again",
 * which schedules one again once however often it is pressed.
 */
export const payoutProblemRoutes = moderatorRoutes<{ db: Db; jobs: JobQueue }>(async (app, deps) => {
  app.get('/admin/payout-problems', { schema: { response: { 200: payoutProblemsResponse } } }, async () =>
    transferService.problems(deps.db),
  );
  app.post(
    '/admin/payout-problems/:kind/:id/retry',
    { schema: { params: payoutProblemParams, response: { 200: payoutRetryResponse } } },
    async (request) => transferService.retryProblem(deps, request.params.kind, request.params.id),
  );
});
