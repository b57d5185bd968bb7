/**
 * @module egress/connector
 * The undici dispatcher for guest egress. Every connection resolves its host through a lookup that
 * rejects forbidden addresses (sandbox-lib's `checkAddress`: private, loopback, link-local and
 * metadata, unspecified, reserved, and their IPv4-mapped, NAT64 and 6to4 forms), and after
 * connecting checks the address the socket is actually connected to, so DNS rebinding between a
 * check and the connect cannot get through.
 * Test-only loopback names (config) resolve to 127.0.0.1 and may reach it; nothing else may.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import { checkAddress } from '@platform/sdk';
import { Agent, buildConnector } from 'undici';
import { normalizeHost } from './hosts.ts';

/** Why `address` may not be reached, or null. */
function forbiddenAddress(address: string): string | null {
  const verdict = checkAddress(address);
  return verdict.allowed ? null : `${address} is ${verdict.reason}`;
}

export class BlockedAddressError extends Error {
  readonly code = 'PLATFORM_EGRESS_BLOCKED';
}

export type Lookup = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemLookup: Lookup = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

export interface GuardOptions {
  connectTimeoutMs: number;
  testLoopbackHosts: readonly string[];
  /** Injected for tests; the system resolver otherwise. */
  lookup?: Lookup;
}

export function createGuardedAgent(options: GuardOptions): Agent {
  const loopbackNames = new Set(options.testLoopbackHosts.map(normalizeHost));
  const resolve = options.lookup ?? systemLookup;
  const exempt = (hostname: string): boolean => loopbackNames.has(normalizeHost(hostname));

  const lookup = (hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void): void => {
    const done = (addresses: LookupAddress[]): void => {
      if (opts.all === true) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    if (exempt(hostname)) return done([{ address: '127.0.0.1', family: 4 }]);
    resolve(hostname, (err, addresses) => {
      if (err !== null) return callback(err);
      if (addresses.length === 0) return callback(new Error(`${hostname} did not resolve`));
      for (const a of addresses) {
        const why = forbiddenAddress(a.address);
        if (why !== null) return callback(new BlockedAddressError(`${hostname} resolves to a forbidden address: ${why}`));
      }
      done(addresses);
    });
  };

  const base = buildConnector({ timeout: options.connectTimeoutMs, lookup } as Parameters<typeof buildConnector>[0]);
  const connect: buildConnector.connector = (opts, callback) => base(opts, (err, socket) => {
    if (err !== null) return callback(err, null);
    const remote = (socket as Socket).remoteAddress;
    const why = remote === undefined ? 'the connected address is unknown' : exempt(opts.hostname) && remote === '127.0.0.1' ? null : forbiddenAddress(remote);
    if (why !== null) {
      socket.destroy();
      return callback(new BlockedAddressError(`Connection to ${opts.hostname} refused: ${why}`), null);
    }
    callback(null, socket);
  });

  return new Agent({ connect, connections: 64, keepAliveTimeout: 10_000 });
}
