import { handoverInput, handoverList, handoverResponse } from '#shared/schemas/handovers.ts';
import { reservationIdParams } from '#shared/schemas/reservations.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { type HandoverDeps, handoverService } from './service.ts';

// Decision 033: the condition of the item at pickup and at return.

export const handoverRoutes = signedInRoutes<{ db: Db; storage: Storage; clock?: Clock }>(
  async (app, { db, storage, clock }) => {
    const deps: HandoverDeps = { db, storage, clock };

    app.get(
      '/reservations/:id/handovers',
      { schema: { params: reservationIdParams, response: { 200: handoverList } } },
      async (request) => ({
        handovers: await handoverService.list(deps, request.signedInUser, request.params.id),
      }),
    );

    app.post(
      '/reservations/:id/handovers',
      {
        schema: { params: reservationIdParams, body: handoverInput, response: { 200: handoverResponse } },
      },
      async (request) => ({
        success: true as const,
        handovers: await handoverService.add(deps, request.signedInUser.id, request.params.id, request.body),
      }),
    );
  },
);
