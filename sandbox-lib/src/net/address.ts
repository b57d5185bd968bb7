/**
 * @module net/address
 * Which IP addresses outbound calls may connect to. Both servers call hosts chosen by strangers (the
 * control plane: self-hosted endpoints; the runtime: guest `fetch`), so both must refuse the
 * addresses of our own network: private, loopback, link-local (cloud metadata), unspecified,
 * multicast, reserved and documentation ranges, and every IPv6 form that embeds one of those
 * IPv4 addresses (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64, 6to4). The ranges are
 * ipaddr.js's tables (kept with the RFCs); what is added here is which ones we refuse and the
 * embedded IPv4 addresses judged in their own right. The check runs on the address actually
 * connected to, after DNS, which is what defeats DNS rebinding.
 */
import ipaddr from 'ipaddr.js';

/** `loopback` marks a refusal that a caller may lift for local development (and nothing else). */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string; loopback?: true };

export interface AddressOptions {
  /** Loopback addresses (127.0.0.0/8, ::1, and IPv4-mapped loopback) are allowed: development only. */
  allowLoopback?: boolean;
}

const V4_REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'reserved (broadcast)',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata)',
  loopback: 'loopback',
  carrierGradeNat: 'shared address space (carrier NAT)',
  private: 'private',
  reserved: 'reserved (IETF, documentation, benchmarking or future use)',
};

const V6_REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  linkLocal: 'link-local',
  multicast: 'multicast',
  uniqueLocal: 'unique local (private)',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  teredo: 'Teredo',
  reserved: 'reserved (IETF or documentation)',
};

/** Canonical dotted-quad IPv4 only (what DNS answers and URL parsing produce), as ipaddr.js parses it. */
export function parseIPv4(text: string): ipaddr.IPv4 | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
}

/** An IPv6 address (with `::`, an embedded IPv4 tail, brackets or a zone). */
export function parseIPv6(text: string): ipaddr.IPv6 | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : null;
}

function refused(reason: string, loopback = false): AddressVerdict {
  return loopback ? { allowed: false, reason, loopback: true } : { allowed: false, reason };
}

function checkV4(address: ipaddr.IPv4): AddressVerdict {
  const range = address.range();
  // as112 and amt are public anycast services: ordinary unicast destinations.
  if (range === 'unicast' || range === 'as112' || range === 'amt') return { allowed: true };
  return refused(V4_REASONS[range] ?? range, range === 'loopback');
}

function embeddedV4(parts: number[], at: number): ipaddr.IPv4 {
  const hi = parts[at]!;
  const lo = parts[at + 1]!;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function withForm(verdict: AddressVerdict, form: string, keepLoopback: boolean): AddressVerdict {
  if (verdict.allowed) return verdict;
  return refused(`${form} ${verdict.reason}`, keepLoopback && verdict.loopback === true);
}

function checkV6(address: ipaddr.IPv6): AddressVerdict {
  const parts = address.parts;
  const range = address.range();
  // IPv4-mapped ::ffff:a.b.c.d reaches the IPv4 address on this host's own stack: judge that
  // address (its loopback is this host's loopback).
  if (range === 'ipv4Mapped') return withForm(checkV4(address.toIPv4Address()), 'IPv4-mapped', true);
  if (range === 'rfc6145') return withForm(checkV4(embeddedV4(parts, 6)), 'IPv4-translated', false);
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address; the local-use prefix
  // 64:ff9b:1::/48 reaches whatever the operator's translator serves: refuse it outright.
  if (range === 'rfc6052') {
    return parts[2] === 1 ? refused('local-use NAT64') : withForm(checkV4(embeddedV4(parts, 6)), 'NAT64', false);
  }
  if (range === '6to4') return withForm(checkV4(embeddedV4(parts, 1)), '6to4', false);
  // IPv4-compatible ::a.b.c.d (deprecated, but stacks may still route it): judge the IPv4 address.
  if (range !== 'unspecified' && range !== 'loopback' && parts.slice(0, 6).every((p) => p === 0)) {
    return withForm(checkV4(embeddedV4(parts, 6)), 'IPv4-compatible', false);
  }
  if (range === 'unicast') return { allowed: true };
  return refused(V6_REASONS[range] ?? `special-purpose (${range})`, range === 'loopback');
}

function lift(verdict: AddressVerdict, options: AddressOptions): AddressVerdict {
  return !verdict.allowed && verdict.loopback === true && options.allowLoopback === true ? { allowed: true } : verdict;
}

/**
 * Whether an outbound connection to this IP address is allowed. Anything that is not an IP
 * address is refused (callers pass resolved addresses, never names).
 * @example
 * checkAddress('169.254.169.254') // { allowed: false, reason: 'link-local (cloud metadata)' }
 * checkAddress('::ffff:127.0.0.1') // { allowed: false, reason: 'IPv4-mapped loopback', loopback: true }
 * checkAddress('127.0.0.1', { allowLoopback: true }) // { allowed: true }
 * checkAddress('93.184.216.34')   // { allowed: true }
 */
export function checkAddress(address: string, options: AddressOptions = {}): AddressVerdict {
  const four = parseIPv4(address);
  if (four !== null) return lift(checkV4(four), options);
  const six = parseIPv6(address);
  if (six !== null) return lift(checkV6(six), options);
  return { allowed: false, reason: 'not an IP address' };
}

/** Whether a URL's host is an IP literal (as `new URL()` leaves it: dotted quad, or IPv6 in brackets). */
export function isIpLiteral(hostname: string): boolean {
  return parseIPv4(hostname) !== null || parseIPv6(hostname) !== null;
}

/**
 * What can be known of an endpoint's host before any DNS lookup: an IP literal is judged as an
 * address; `localhost` and `*.localhost` are loopback by definition (RFC 6761); any other name is
 * allowed here and judged on the address it resolves to, when a delivery connects.
 * @example
 * checkHost('10.0.0.1')  // { allowed: false, reason: 'private' }
 * checkHost('localhost', { allowLoopback: true }) // { allowed: true }
 */
export function checkHost(hostname: string, options: AddressOptions = {}): AddressVerdict {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIpLiteral(host)) return checkAddress(host, options);
  if (host === 'localhost' || host.endsWith('.localhost')) return lift(refused('loopback (localhost)', true), options);
  return { allowed: true };
}
