import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import { reportInput, reportList, reportResponse } from '#shared/schemas/reports.ts';
import type { Db } from '../../db/client.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { tooManyRequests } from '../../rate-limited.ts';
import { reportService } from './service.ts';

/** Reports a person may file in an hour: plenty for real trouble, too few to flood the moderators. */
const REPORTS_PER_HOUR = 10;

export const reportRoutes = signedInRoutes<{ db: Db }>(async (app, { db }) => {
  app.post(
    '/reports',
    {
      config: {
        rateLimit: {
          max: REPORTS_PER_HOUR,
          timeWindow: 60 * 60 * 1000,
          // Counted once the form is valid: a report refused for a missing description is not one sent.
          hook: 'preHandler' as const,
          // Per person (signed in by now): a campus shares a few IP addresses.
          keyGenerator: (request: FastifyRequest) => `report:${request.user?.id ?? request.ip}`,
          errorResponseBuilder: tooManyRequests(
            msg`You have sent a lot of reports. Please wait an hour before sending another.`,
          ),
        },
      },
      schema: { body: reportInput, response: { 201: reportResponse } },
    },
    async (request, reply) => {
      const report = await reportService.create(db, request.signedInUser.id, request.body);
      return reply.status(201).send({ report });
    },
  );

  app.get('/reports', { schema: { response: { 200: reportList } } }, async (request) => ({
    reports: await reportService.listOwn(db, request.signedInUser.id),
  }));
});
