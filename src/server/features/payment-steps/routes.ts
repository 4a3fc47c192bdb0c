import { successResponse } from '#shared/schemas/auth.ts';
import {
  adminPaymentsResponse,
  paymentMismatchIdParams,
  paymentStepIdParams,
  resolveMismatchInput,
} from '#shared/schemas/payment-steps.ts';
import { moderatorRoutes } from '../../http/route-scopes.ts';
import { type PaymentStepDeps, paymentStepService } from './service.ts';

// /api/admin/payments…: moderators see provider calls that keep failing and reconciliation findings,
// retry a step, and close a finding (decision 012). One hook guards the group.

export const paymentStepRoutes = moderatorRoutes<{ deps: PaymentStepDeps }>(async (app, { deps }) => {
  app.get('/admin/payments', { schema: { response: { 200: adminPaymentsResponse } } }, async (request) =>
    paymentStepService.attention(deps, request.signedInUser.id),
  );

  app.post(
    '/admin/payment-steps/:id/retry',
    { schema: { params: paymentStepIdParams, response: { 200: successResponse } } },
    async (request) => {
      await paymentStepService.retry(deps, request.signedInUser.id, request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/admin/payment-mismatches/:id/resolve',
    {
      schema: {
        params: paymentMismatchIdParams,
        body: resolveMismatchInput,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await paymentStepService.resolveMismatch(
        deps.db,
        request.signedInUser.id,
        request.params.id,
        request.body.note,
      );
      return { success: true as const };
    },
  );
});
