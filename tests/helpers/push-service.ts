import type { Resolve } from '../../src/server/features/deliveries/push-endpoint.ts';
import { createPushSender, type VapidKeys } from '../../src/server/features/deliveries/push-sender.ts';

// Tests' push services: endpoints are https on a made-up public host, as browsers' are; a resolver of the
// test's own says where that host is (no DNS, no internet), and the request itself goes to a local
// plain-HTTP stand-in. Production's sender has neither: the system's DNS and the real fetch.

export const PUSH_ORIGIN = 'https://push.campusloop.test';

/** Hosts and their addresses: a test may change one to see the next send refused. */
export const hosts = new Map<string, string[]>([['push.campusloop.test', ['93.184.215.14']]]);

export const testResolve: Resolve = async (host) => {
  const addresses = hosts.get(host);
  if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return addresses;
};

/** A sender whose requests reach `localBase()` (http://127.0.0.1:port) with the endpoint's path. */
export function testPushSender(vapid: VapidKeys, localBase: () => string) {
  return createPushSender(vapid, {
    guard: { resolve: testResolve },
    fetch: (input, init) => {
      const url = new URL(String(input));
      return fetch(`${localBase()}${url.pathname}${url.search}`, init);
    },
  });
}
