import {
  campusImpactResponse,
  campusParams,
  impactCampusesResponse,
  impactDashboardResponse,
  leaderboardResponse,
} from '#shared/schemas/impact.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import { requestLocale } from '../../i18n.ts';
import { impactService } from './service.ts';

// Spec §6: anyone, signed in or not, may look at any campus's impact.
export const impactRoutes = publicRoutes<{ db: Db; config: Config }>(async (app, { db, config }) => {
  const deps = { db, timeZone: config.campusTimeZone };

  app.get(
    '/impact',
    { config: { public: true }, schema: { response: { 200: impactCampusesResponse } } },
    async () => impactService.campuses(db),
  );

  app.get(
    '/impact/:campus',
    { config: { public: true }, schema: { params: campusParams, response: { 200: campusImpactResponse } } },
    async (request) => ({ impact: await impactService.campusImpact(db, request.params.campus) }),
  );

  app.get(
    '/impact/:campus/leaderboard',
    { config: { public: true }, schema: { params: campusParams, response: { 200: leaderboardResponse } } },
    async (request) => impactService.leaderboard(deps, request.params.campus),
  );

  app.get(
    '/impact/:campus/dashboard',
    {
      config: { public: true },
      schema: { params: campusParams, response: { 200: impactDashboardResponse } },
    },
    async (request) =>
      impactService.dashboard(deps, request.params.campus, new Date(), requestLocale(request)),
  );
});
