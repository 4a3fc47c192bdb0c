import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { handoverInput, handoverList, handoverResponse } from '#shared/schemas/handovers.ts';
import { reservationIdParams } from '#shared/schemas/reservations.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { type HandoverDeps, handoverService } from './service.ts';

// Issue 17 item 1, decision 033: the condition of the item at pickup and at return.

export const handoverRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage; clock?: Clock }> = async (
  app,
  { db, storage, clock },
) => {
  const deps: HandoverDeps = { db, storage, clock };
  const signedIn = {
    onRequest: async (request: Parameters<typeof requireUser>[0]) => void requireUser(request),
  };

  app.get(
    '/reservations/:id/handovers',
    { ...signedIn, schema: { params: reservationIdParams, response: { 200: handoverList } } },
    async (request) => ({
      handovers: await handoverService.list(deps, requireUser(request), request.params.id),
    }),
  );

  app.post(
    '/reservations/:id/handovers',
    {
      ...signedIn,
      schema: { params: reservationIdParams, body: handoverInput, response: { 200: handoverResponse } },
    },
    async (request) => ({
      success: true as const,
      handovers: await handoverService.add(deps, requireUser(request).id, request.params.id, request.body),
    }),
  );
};
