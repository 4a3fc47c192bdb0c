import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, pushEndpointProblem } from './push-endpoint.ts';

// Which addresses a push may go to: public unicast only, whatever way an inside address is written.

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.215.14', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false], // loopback
    ['127.255.0.9', false],
    ['::1', false],
    ['10.1.2.3', false], // private
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false], // link-local: the cloud's metadata service
    ['fe80::1', false],
    ['fc00::1', false], // unique-local
    ['fd12:3456::1', false],
    ['100.64.0.1', false], // carrier-grade NAT
    ['100.127.255.254', false],
    ['224.0.0.1', false], // multicast
    ['ff02::1', false],
    ['0.0.0.0', false], // unspecified
    ['::', false],
    ['255.255.255.255', false], // broadcast
    ['192.0.2.1', false], // documentation and other reserved ranges
    ['240.0.0.1', false],
    ['::ffff:127.0.0.1', false], // IPv4-mapped IPv6 of inside addresses
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
    ['2002:a00:1::', false], // 6to4 of 10.0.0.1
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('pushEndpointProblem', () => {
  // The messages as written in the source (English): no catalog needed.
  beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));
  const resolve = async (host: string) => {
    const table: Record<string, string[]> = {
      'push.example.test': ['93.184.215.14', '2606:4700::6810:84e5'],
      'inside.example.test': ['93.184.215.14', '10.0.0.7'],
      'empty.example.test': [],
    };
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };
  const problem = async (endpoint: string) => {
    const found = await pushEndpointProblem(endpoint, { resolve });
    return found ? i18n._(found) : undefined;
  };

  it('takes an https endpoint whose every address is public', async () => {
    expect(await problem('https://push.example.test/send/abc')).toBeUndefined();
    expect(await problem('https://8.8.8.8/send')).toBeUndefined();
  });

  it.each([
    ['http://push.example.test/send', 'The push endpoint must be an https address.'],
    ['ftp://push.example.test/send', 'The push endpoint must be an https address.'],
    ['not a url', 'The push endpoint must be an https address.'],
    ['https://inside.example.test/send', 'The push endpoint must be a public internet address.'],
    ['https://127.0.0.1/send', 'The push endpoint must be a public internet address.'],
    ['https://0177.0.0.1/send', 'The push endpoint must be a public internet address.'],
    ['https://2130706433/send', 'The push endpoint must be a public internet address.'],
    ['https://[::ffff:127.0.0.1]/send', 'The push endpoint must be a public internet address.'],
    ['https://[fd00::1]/send', 'The push endpoint must be a public internet address.'],
    ['https://empty.example.test/send', "The push endpoint's address could not be found."],
    ['https://missing.example.test/send', "The push endpoint's address could not be found."],
  ])('refuses %s', async (endpoint, message) => {
    expect(await problem(endpoint)).toBe(message);
  });
});
