/**
 * @module deliveries/outbound/guarded-agent
 * An undici dispatcher for calls to hosts that strangers chose (self-hosted app endpoints). Every
 * address DNS returns is checked with `checkAddress` inside the connector's lookup, so the address
 * that is actually connected to is the one that was checked (DNS rebinding cannot slip a private
 * address in between a check and the connect). IP-literal hosts never reach `lookup`, so
 * `assertUrlAllowed` checks them before the request starts.
 *
 * The guard is on in every mode. Development lifts it for loopback only (a self-hosted app under
 * development listens on localhost); private, link-local (cloud metadata), unspecified and every
 * other range stay refused there too, and production refuses loopback as well.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { checkAddress, checkHost } from '@platform/sdk';

export class OutboundRefusedError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`Outbound call refused: ${reason}`);
    this.name = 'OutboundRefusedError';
    this.reason = reason;
  }
}

export interface GuardOptions {
  /** Development mode: self-hosted apps on localhost (loopback) are fine; nothing else internal is. */
  allowLoopback: boolean;
  /**
   * TEST ONLY (IMAGE_COPY_TEST_LOOPBACK_HOSTS, refused in production): host names that resolve to
   * 127.0.0.1, may be reached there and are spoken to over http. Only the image copier has any.
   */
  testLoopbackHosts?: ReadonlySet<string>;
}

/** Whether `hostname` is one of the guard's test loopback names. */
export const isTestLoopbackHost = (guard: GuardOptions, hostname: string): boolean => guard.testLoopbackHosts?.has(hostname.toLowerCase()) === true;

/** `dns.lookup` with `all: true`; a test hands in its own names. */
export type ResolveAll = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: ResolveAll = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

const guardedLookup = (guard: GuardOptions, resolve: ResolveAll): LookupFunction => (hostname, options, callback) => {
  if (isTestLoopbackHost(guard, hostname)) {
    const loopback = [{ address: '127.0.0.1', family: 4 }];
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, loopback);
    return callback(null, '127.0.0.1', 4);
  }
  resolve(hostname, (error, addresses) => {
    if (error) return callback(error, '', 0);
    for (const entry of addresses) {
      const verdict = checkAddress(entry.address, { allowLoopback: guard.allowLoopback });
      if (!verdict.allowed) {
        return callback(new OutboundRefusedError(`${hostname} resolves to ${entry.address} (${verdict.reason})`), '', 0);
      }
    }
    const first = addresses[0];
    if (first === undefined) return callback(new OutboundRefusedError(`${hostname} has no address`), '', 0);
    // net.connect asked for one address unless `all` was set; answer in the shape it asked for.
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, first.address, first.family);
  });
};

/** Throws `OutboundRefusedError` for URLs that may not be called at all. */
export function assertUrlAllowed(url: URL, options: GuardOptions): void {
  if (isTestLoopbackHost(options, url.hostname)) return;
  if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:')) {
    throw new OutboundRefusedError(`${url.protocol} is not allowed; endpoints are https://`);
  }
  if (url.username !== '' || url.password !== '') throw new OutboundRefusedError('credentials in the URL are not allowed');
  const verdict = checkHost(url.hostname, { allowLoopback: options.allowLoopback });
  if (!verdict.allowed) throw new OutboundRefusedError(`${url.hostname} is ${verdict.reason}`);
}

/**
 * @example
 * const agent = createGuardedAgent({ allowLoopback: config.dev });
 * await request(url, { dispatcher: agent, method: 'POST', body });
 */
export function createGuardedAgent(options: GuardOptions, resolve: ResolveAll = systemResolve): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(options, resolve) },
    keepAliveTimeout: 10_000,
    connections: 64,
  });
}
