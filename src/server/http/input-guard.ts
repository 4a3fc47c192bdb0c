import type { MessageDescriptor } from '@lingui/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { textProblemMessage } from '#shared/schemas/fields.ts';
import { AppError } from '../errors.ts';

// The API boundary's own check of every text a request carries (path, query, JSON body), before any
// route's schema: a NUL reached PostgreSQL through 14 endpoints and answered 500 (decision 014). The shared
// schemas refuse the same characters with the same messages, so forms say it first; this guard is
// for the field a future schema forgets. Raw bodies (Stripe's webhook) and uploads are bytes, not text.

interface Found {
  path: string;
  /** Written in the caller's language by the error handler. */
  message: MessageDescriptor;
}

/** The first string (key or value) that no field may hold, walked without recursion (bodies may nest deep). */
export function findBadText(value: unknown, root: string): Found | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next.value === 'string') {
      const message = textProblemMessage(next.value);
      if (message) return { path: next.path, message };
    } else if (Array.isArray(next.value)) {
      next.value.forEach((element, i) => {
        stack.push({ value: element, path: `${next.path}.${i}` });
      });
    } else if (next.value !== null && typeof next.value === 'object' && !Buffer.isBuffer(next.value)) {
      for (const [key, element] of Object.entries(next.value)) {
        const path = next.path ? `${next.path}.${key}` : key;
        const message = textProblemMessage(key);
        if (message) return { path, message };
        stack.push({ value: element, path });
      }
    }
  }
  return undefined;
}

export default fp(
  async function inputGuard(app: FastifyInstance) {
    // A callback, not an async hook: it runs on every request, the unread polls included.
    app.addHook('preValidation', (request, _reply, done) => {
      const found =
        findBadText(request.params, '') ?? findBadText(request.query, '') ?? findBadText(request.body, '');
      if (!found) return done();
      done(
        new AppError(400, 'VALIDATION', found.message, [
          { path: found.path.replace(/^\./, ''), message: found.message },
        ]),
      );
    });
  },
  { name: 'input-guard' },
);
