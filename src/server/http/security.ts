import type { IncomingMessage, ServerResponse } from 'node:http';
import { msg } from '@lingui/core/macro';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

// Security headers, a Content-Security-Policy without inline script, and the same-origin rule for
// every request that changes something (cookies alone would let another site act for the user).
// Helmet writes the headers; they depend only on the configuration, so they are worked out once at
// start and set as they are on every answer (helmet per request rebuilt the policy text each time:
// about a tenth of a poll's cost, docs/performance.md).

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` for a route that other sites' servers call, without an Origin, and that proves the caller
     * another way (Stripe's webhook: its signature). The route says so itself, so this plugin needs to
     * know nothing of the features.
     */
    sameOrigin?: boolean;
  }
}

/** The methods that change something: held to the same-origin rule, and they empty the read caches. */
export const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The headers helmet sets for these options, read from one run of its middleware. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export default fp(
  async function security(app: FastifyInstance, opts: { config: Config }) {
    const stripe = Boolean(opts.config.stripe);
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // Stripe Elements loads its script and card frames from Stripe, only when Stripe is on.
          scriptSrc: ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
          ...(stripe ? { frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'] } : {}),
          // React and Radix set element styles at run time; no script is ever allowed inline.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Photos come from our own /uploads/, or from the bucket when S3 storage is configured.
          imgSrc: [
            "'self'",
            'data:',
            'blob:',
            ...(opts.config.s3 ? [new URL(opts.config.s3.publicUrl).origin] : []),
          ],
          connectSrc: ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
          fontSrc: ["'self'", 'data:'],
          // The installable app's service worker (/sw.js) and manifest, from here only.
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: opts.config.cookieSecure ? [] : null,
        },
      },
      // Images are served to the app's own pages only.
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: opts.config.cookieSecure,
    });
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });

    const allowed = new Set(opts.config.appOrigins);
    app.addHook('onRequest', (request, _reply, done) => {
      if (!MUTATING.has(request.method)) return done();
      if (request.routeOptions.config.sameOrigin === false) return done();
      const origin = request.headers.origin;
      if (origin && (origin === originOf(request) || allowed.has(origin))) return done();
      done(
        new AppError(
          403,
          'CROSS_ORIGIN',
          msg`This request did not come from CampusLoop, so it was refused. Reload the page and try again.`,
        ),
      );
    });
  },
  { name: 'security' },
);
