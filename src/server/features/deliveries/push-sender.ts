import webpush from 'web-push';

// Web Push (RFC 8030/8291/8292) through the `web-push` package: it signs the VAPID header and encrypts
// the payload; the request goes out with fetch, so a test's plain-HTTP stand-in for a push service works
// as well as the browsers' HTTPS ones.

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushSender {
  readonly publicKey: string;
  /** Resolves when the push service took the message; rejects with `PushGoneError` for 404/410. */
  send(target: PushTarget, payload: object): Promise<void>;
}

/** The push service says this subscription no longer exists: drop it, never retry. */
export class PushGoneError extends Error {}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export function createPushSender(vapid: VapidKeys, timeoutMs = 10_000): PushSender {
  return {
    publicKey: vapid.publicKey,
    async send(target, payload) {
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(payload),
        { vapidDetails: vapid, TTL: 24 * 60 * 60, contentEncoding: 'aes128gcm' },
      );
      const response = await fetch(details.endpoint, {
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
