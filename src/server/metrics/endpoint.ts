import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from './metrics.ts';

// GET /metrics for Prometheus, and the HTTP timings it shows. The figures are not public:
// the endpoint answers only `Authorization: Bearer <METRICS_TOKEN>`. Without the setting it does not
// exist, and a request without the token, or with a wrong one, gets what any unknown path gets (the
// not-found handler), so nobody learns from outside that it is there. It sits outside /api: no
// session hook, no read cache, no rate limit (a scraper calls every few seconds from one address).

/** The label of a request no route matched (a page of the web app, served by the not-found handler, or a 404). */
export const UNMATCHED_ROUTE = '(unmatched)';
/**
 * The label of the web app's built files. @fastify/static adds one route per file (about 200 with
 * their .br and .gz copies, renamed by every build): one label for all keeps the series few and stable.
 */
export const STATIC_ROUTE = '(static)';

/** The route label: the pattern of an API, socket, metrics or uploads route, else one of the two above. */
export function routeLabel(pattern: string | undefined): string {
  if (pattern === undefined) return UNMATCHED_ROUTE;
  if (
    pattern.startsWith('/api/') ||
    pattern.startsWith('/uploads/') ||
    pattern === '/ws' ||
    pattern === '/metrics'
  )
    return pattern;
  return STATIC_ROUTE;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export default fp(
  async function metricsEndpoint(app: FastifyInstance, opts: { metrics: Metrics; token: string }) {
    const { metrics } = opts;
    // Digests of equal length, compared in constant time: the answer's timing says nothing of the token.
    const expected = sha256(opts.token);
    const authorised = (request: FastifyRequest) => {
      const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
      return Boolean(match?.[1] && timingSafeEqual(sha256(match[1]), expected));
    };

    // Every answer, by route pattern (`/api/items/:id`, never the URL with its id: bounded label
    // values), method and status. onResponse runs after the answer is sent, refused ones included.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.requestDone(
        request.method,
        routeLabel(request.routeOptions.url),
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    app.get(
      '/metrics',
      // A scrape every few seconds would fill the log with its two request lines; warnings still show.
      { logLevel: 'warn' },
      async (request, reply) => {
        if (!authorised(request)) return reply.callNotFound();
        const text = await metrics.registry.metrics();
        return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
      },
    );
  },
  { name: 'metrics' },
);
