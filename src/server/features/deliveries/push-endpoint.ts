import { lookup } from 'node:dns/promises';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import ipaddr from 'ipaddr.js';

// Where a Web Push subscription may send: an https address whose host resolves only to public addresses.
// Anyone may subscribe any endpoint, and each notification then makes the server POST to it, so an
// endpoint inside (loopback, the private network, the cloud's metadata address) would let a student
// reach what only the server can. Checked when subscribing and again before each send: DNS can change.

/** A host's addresses (all of them: one inside is enough to refuse). */
export type Resolve = (host: string) => Promise<string[]>;

export const resolveWithDns: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface PushEndpointGuard {
  resolve: Resolve;
}

/** Production's guard: the system's DNS, nothing trusted beforehand. */
export const publicPushEndpoints: PushEndpointGuard = { resolve: resolveWithDns };

/**
 * Only plain public unicast: ipaddr.js names every other range (loopback, private, link-local,
 * unique-local, carrier-grade NAT, multicast, unspecified, broadcast, reserved, documentation, 6to4,
 * NAT64, Teredo…), and an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Why this endpoint may not be used, or null when it may. */
export async function pushEndpointProblem(
  endpoint: string,
  guard: PushEndpointGuard,
): Promise<MessageDescriptor | null> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return msg`The push endpoint must be an https address.`;
  }
  if (url.protocol !== 'https:') return msg`The push endpoint must be an https address.`;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : await guard.resolve(host);
  } catch {
    return msg`The push endpoint's address could not be found.`;
  }
  if (addresses.length === 0) return msg`The push endpoint's address could not be found.`;
  if (!addresses.every(isPublicAddress)) {
    return msg`The push endpoint must be a public internet address.`;
  }
  return null;
}
