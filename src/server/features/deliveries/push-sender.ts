import type { MessageDescriptor } from '@lingui/core';
import webpush from 'web-push';
import { type PushEndpointGuard, publicPushEndpoints, pushEndpointProblem } from './push-endpoint.ts';

// Web Push (RFC 8030/8291/8292) through the `web-push` package: it signs the VAPID header and encrypts
// the payload; the request goes out with fetch. Only to https endpoints on public addresses
// (push-endpoint.ts), checked again before each send. Tests give their own resolver and a fetch that
// carries the request to a local stand-in for a push service; production passes neither.

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushSender {
  readonly publicKey: string;
  /** Why this endpoint may not receive pushes (not https, not public), or null when it may. */
  endpointProblem(endpoint: string): Promise<MessageDescriptor | null>;
  /** Resolves when the push service took the message; rejects with `PushGoneError` for 404/410. */
  send(target: PushTarget, payload: object): Promise<void>;
}

/** The push service says this subscription no longer exists: drop it, never retry. */
export class PushGoneError extends Error {}

/** The endpoint's host no longer resolves to a public address: nothing is sent, and it is dropped. */
export class PushEndpointRefusedError extends PushGoneError {}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushSenderOptions {
  timeoutMs?: number;
  /** How endpoints' hosts resolve (tests: a table of their own). */
  guard?: PushEndpointGuard;
  /** Tests only: carries the request to their stand-in push service. */
  fetch?: typeof fetch;
}

export function createPushSender(
  vapid: VapidKeys,
  { timeoutMs = 10_000, guard = publicPushEndpoints, fetch: send = fetch }: PushSenderOptions = {},
): PushSender {
  const endpointProblem = (endpoint: string) => pushEndpointProblem(endpoint, guard);
  return {
    publicKey: vapid.publicKey,
    endpointProblem,
    async send(target, payload) {
      if (await endpointProblem(target.endpoint)) {
        throw new PushEndpointRefusedError('push endpoint no longer resolves to a public address');
      }
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(payload),
        { vapidDetails: vapid, TTL: 24 * 60 * 60, contentEncoding: 'aes128gcm' },
      );
      const response = await send(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: new Uint8Array(details.body as Buffer),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) {
        throw new PushGoneError(`push service answered ${response.status}`);
      }
      if (!response.ok) throw new Error(`push service answered ${response.status}`);
    },
  };
}
