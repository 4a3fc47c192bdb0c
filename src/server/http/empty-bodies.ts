import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// An empty body is no body, whatever its Content-Type says. Fastify's own JSON parser refuses an
// empty `application/json` body with a 400 before any route runs, so a sign-out sent that way left
// its session alive (decision 036). Every other body goes through Fastify's parser as before, with
// its protection against prototype poisoning. A route that needs a body still refuses none, with its
// schema's clear 400.

export default fp(
  async function emptyBodies(app: FastifyInstance) {
    const json = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if ((body as string).trim() === '') return done(null, undefined);
      json(request, body as string, done);
    });
  },
  { name: 'empty-bodies' },
);
