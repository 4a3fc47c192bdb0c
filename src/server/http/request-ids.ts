import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Every request has an id: on each of its log lines (Fastify's request logger binds it as
// `reqId`) and in the `X-Request-Id` answer header, so a person's report or a proxy's log leads to
// the server's lines. An id a proxy or a caller sent is kept when it is a plain token, so one id
// follows a request through every hop; anything else (too long, spaces, quotes, control characters,
// two headers joined by a comma) is replaced, so no caller can forge log structure through it.

export const REQUEST_ID_HEADER = 'x-request-id';

/** Letters, digits and `._:-`, at most 128: UUIDs, hex and base32 ids, nginx's $request_id. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`. Its own `requestIdHeader` option takes the header's value unchecked, so it
 * stays off and the header is read (and checked) here.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export default fp(
  async function requestIds(app: FastifyInstance) {
    // The first hook of all: a request that a later hook refuses (another site's Origin, say) still
    // answers with its id.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: 'request-ids' },
);
