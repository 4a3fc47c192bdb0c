import { campusParams } from '#shared/schemas/impact.ts';
import {
  campusNameResponse,
  universityDetectQuery,
  universityDetectResponse,
  universitySearchQuery,
  universitySearchResponse,
} from '#shared/schemas/universities.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import { universityService } from './service.ts';

export const universityRoutes = publicRoutes(async (app) => {
  app.get(
    '/universities',
    {
      config: { public: true },
      schema: { querystring: universitySearchQuery, response: { 200: universitySearchResponse } },
    },
    async (request, reply) => {
      // The directory changes only with a deploy; let browsers keep answers for an hour.
      reply.header('cache-control', 'public, max-age=3600');
      return universityService.search(request.query.q);
    },
  );

  app.get(
    '/universities/campus/:campus',
    {
      config: { public: true },
      schema: { params: campusParams, response: { 200: campusNameResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      const { campus } = request.params;
      return {
        campus,
        campusName: universityService.campusName(campus),
        known: universityService.isKnownCampus(campus),
      };
    },
  );

  app.get(
    '/universities/detect',
    {
      config: { public: true },
      schema: { querystring: universityDetectQuery, response: { 200: universityDetectResponse } },
    },
    async (request) => universityService.detect(request.query.email),
  );
});
