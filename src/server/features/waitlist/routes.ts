import { successResponse } from '#shared/schemas/auth.ts';
import { itemIdParams } from '#shared/schemas/items.ts';
import {
  waitlistEntryIdParams,
  waitlistEntryResponse,
  waitlistInput,
  waitlistList,
} from '#shared/schemas/waitlist.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { type WaitlistDeps, waitlistService } from './service.ts';

// "Notify me when available" on an item's page, and leaving it again.

export const waitlistRoutes = signedInRoutes<{ db: Db; config: Config; clock: Clock }>(
  async (app, { db, config, clock }) => {
    const deps: WaitlistDeps = { db, timeZone: config.campusTimeZone, clock };

    app.get(
      '/items/:id/waitlist',
      { schema: { params: itemIdParams, response: { 200: waitlistList } } },
      async (request) => ({
        entries: await waitlistService.listMine(deps, request.signedInUser.id, request.params.id),
      }),
    );

    app.post(
      '/items/:id/waitlist',
      {
        schema: { params: itemIdParams, body: waitlistInput, response: { 201: waitlistEntryResponse } },
      },
      async (request, reply) => {
        const entry = await waitlistService.join(deps, request.signedInUser, request.params.id, request.body);
        return reply.status(201).send({ entry });
      },
    );

    app.delete(
      '/waitlist/:id',
      { schema: { params: waitlistEntryIdParams, response: { 200: successResponse } } },
      async (request) => {
        await waitlistService.leave(db, request.signedInUser.id, request.params.id);
        return { success: true as const };
      },
    );
  },
);
