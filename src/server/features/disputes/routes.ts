import {
  adminDisputesResponse,
  disputeEvidenceResponse,
  disputeFindingInput,
  disputeIdParams,
  disputeResponse,
  submitEvidenceInput,
  testOutcomeInput,
} from '#shared/schemas/disputes.ts';
import type { TestPaymentProvider } from '../../adapters/payments/test-provider.ts';
import { moderatorRoutes } from '../../http/route-scopes.ts';
import { type DisputeDeps, disputeService } from './service.ts';

// /api/admin/disputes…: moderators see card disputes, read and send the evidence, and decide who
// bears a lost one (decision 059). One scope guards the group.

export const disputeRoutes = moderatorRoutes<{ deps: DisputeDeps }>(async (app, { deps }) => {
  app.get('/admin/disputes', { schema: { response: { 200: adminDisputesResponse } } }, async (request) =>
    disputeService.list(deps, request.signedInUser.id),
  );

  app.get(
    '/admin/disputes/:id/evidence',
    { schema: { params: disputeIdParams, response: { 200: disputeEvidenceResponse } } },
    async (request) => ({
      evidence: await disputeService.evidencePreview(deps, request.signedInUser.id, request.params.id),
    }),
  );

  app.post(
    '/admin/disputes/:id/evidence',
    { schema: { params: disputeIdParams, body: submitEvidenceInput, response: { 200: disputeResponse } } },
    async (request) => ({
      dispute: await disputeService.submitEvidence(
        deps,
        request.signedInUser.id,
        request.params.id,
        request.body?.note,
      ),
    }),
  );

  app.post(
    '/admin/disputes/:id/finding',
    { schema: { params: disputeIdParams, body: disputeFindingInput, response: { 200: disputeResponse } } },
    async (request) => {
      const { dispute } = await disputeService.recordFinding(
        deps,
        request.signedInUser.id,
        request.params.id,
        request.body,
      );
      return { dispute };
    },
  );
});

/**
 * The test provider's stand-in for the bank: a moderator decides a dispute as the bank would, and the
 * provider tells the app as Stripe's webhook would. Only registered with the test provider.
 */
export const testDisputeRoutes = moderatorRoutes<{ deps: DisputeDeps; provider: TestPaymentProvider }>(
  async (app, { deps, provider }) => {
    app.post(
      '/admin/disputes/:id/test-outcome',
      { schema: { params: disputeIdParams, body: testOutcomeInput, response: { 200: disputeResponse } } },
      async (request) => {
        const moderatorId = request.signedInUser.id;
        const providerId = await disputeService.providerIdFor(deps.db, moderatorId, request.params.id);
        await provider.closeDispute(providerId, request.body.outcome);
        return { dispute: await disputeService.view(deps.db, moderatorId, request.params.id) };
      },
    );
  },
);
