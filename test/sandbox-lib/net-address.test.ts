import { describe, expect, it } from 'vitest';
import { checkAddress, checkHost, parseIPv6 } from '../../sandbox-lib/src/net/index.ts';

describe('checkAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'], ['10.1.2.3', 'private'], ['100.64.0.1', 'carrier'], ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'], ['169.254.169.254', 'metadata'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'], ['192.0.2.1', 'documentation'], ['198.18.0.1', 'benchmarking'], ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'], ['::', 'unspecified'], ['::1', 'loopback'], ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'], ['::ffff:7f00:1', 'IPv4-mapped loopback'], ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::7f00:1', 'IPv4-compatible loopback'], ['::127.0.0.1', 'loopback'], ['64:ff9b::7f00:1', 'NAT64 loopback'], ['64:ff9b::10.0.0.1', 'NAT64 private'],
    ['64:ff9b:1::1', 'local-use NAT64'], ['2002:7f00:1::', '6to4 loopback'], ['fc00::1', 'unique local'], ['fd00:ec2::254', 'unique local'],
    ['fe80::1%eth0', 'link-local'], ['ff02::1', 'multicast'], ['2001:db8::1', 'documentation'], ['2001::1', 'Teredo'],
    ['localhost', 'not an IP'], ['', 'not an IP'], ['1.2.3', 'not an IP'], ['1.2.3.256', 'not an IP'], ['::ffff:1.2.3.4.5', 'not an IP'],
  ])('refuses %s (%s)', (address, reason) => {
    const verdict = checkAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.reason).toContain(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('allows %s', (address) => {
    expect(checkAddress(address)).toEqual({ allowed: true });
  });

  it('parses IPv6 forms to the same groups', () => {
    expect(parseIPv6('::ffff:127.0.0.1')?.parts).toEqual(parseIPv6('0:0:0:0:0:ffff:7f00:0001')?.parts);
    expect(parseIPv6('1::')?.parts).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIPv6('1::2::3')).toBeNull();
  });

  it('lifts loopback, and only loopback, for development', () => {
    for (const address of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) {
      expect(checkAddress(address)).toMatchObject({ allowed: false, loopback: true });
      expect(checkAddress(address, { allowLoopback: true })).toEqual({ allowed: true });
    }
    // Private, link-local (metadata), unspecified and translated loopback stay refused in development.
    for (const address of ['10.0.0.1', '169.254.169.254', '0.0.0.0', '::', 'fe80::1', 'fd00::1', '64:ff9b::7f00:1', '2002:7f00:1::', '::7f00:1']) {
      expect(checkAddress(address, { allowLoopback: true }).allowed).toBe(false);
    }
  });
});

describe('checkHost', () => {
  it.each([
    ['10.0.0.1', false, 'private'], ['169.254.169.254', false, 'metadata'], ['[::1]', false, 'loopback'], ['localhost', false, 'loopback'],
    ['app.localhost', false, 'loopback'], ['0.0.0.0', true, 'unspecified'], ['192.168.0.10', true, 'private'], ['[fe80::1]', true, 'link-local'],
  ])('refuses %s (development: %s) as %s', (host, allowLoopback, reason) => {
    const verdict = checkHost(host, { allowLoopback });
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.reason).toContain(reason);
  });

  it.each([['localhost', true], ['127.0.0.1', true], ['[::1]', true], ['example.com', false], ['93.184.216.34', false], ['[2606:4700::1111]', false]])(
    'allows %s (development: %s)', (host, allowLoopback) => {
      expect(checkHost(host, { allowLoopback })).toEqual({ allowed: true });
    });
});
