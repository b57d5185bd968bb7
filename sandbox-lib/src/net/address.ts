/**
 * @module net/address
 * Which IP addresses outbound calls may connect to. Both servers call hosts chosen by strangers (the
 * control plane: self-hosted endpoints; the runtime: guest `fetch`), so both must refuse the
 * addresses of our own network: private, loopback, link-local (cloud metadata), unspecified,
 * multicast, reserved and documentation ranges, and every IPv6 form that embeds one of those
 * IPv4 addresses (IPv4-mapped, IPv4-compatible, NAT64, 6to4). Pure and Web-standard: the check runs
 * on the address actually connected to, after DNS, which is what defeats DNS rebinding.
 */

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type V4Range = readonly [base: number, bits: number, reason: string];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;

const BLOCKED_V4: readonly V4Range[] = [
  [v4(0, 0, 0, 0), 8, 'unspecified'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'shared address space (carrier NAT)'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local (cloud metadata)'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'IETF protocol assignments'],
  [v4(192, 0, 2, 0), 24, 'documentation'],
  [v4(192, 88, 99, 0), 24, '6to4 relay anycast'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'benchmarking'],
  [v4(198, 51, 100, 0), 24, 'documentation'],
  [v4(203, 0, 113, 0), 24, 'documentation'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved (and broadcast)'],
];

/** Parses canonical dotted-quad IPv4 (what DNS answers and URL parsing produce). */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** Parses an IPv6 address (with `::`, an embedded IPv4 tail, brackets or a zone) into 8 groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  const tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const maybeV4 = s.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const n = parseIPv4(maybeV4);
    if (n === null) return null;
    tail.push(n >>> 16, n & 0xffff);
    s = s.slice(0, lastColon + 1) + (s[lastColon - 1] === ':' ? '' : '0');
    if (s.endsWith(':0')) s = s.slice(0, -2);
    else if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string) => (h === '' ? [] : h.split(':').map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN)));
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if ([...head, ...rest].some(Number.isNaN)) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1 && explicit !== 8) return null;
  if (halves.length === 2 && explicit > 7) return null;
  const zeros = new Array<number>(8 - explicit).fill(0);
  return halves.length === 2 ? [...head, ...zeros, ...rest, ...tail] : [...head, ...tail];
}

function checkV4(value: number): AddressVerdict {
  for (const [base, bits, reason] of BLOCKED_V4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === base) return { allowed: false, reason };
  }
  return { allowed: true };
}

const embedded = (g: number[], at: number) => ((g[at]! << 16) >>> 0) + g[at + 1]!;

function checkV6(g: number[]): AddressVerdict {
  const [a, b, c, d, e, f] = g as [number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return { allowed: false, reason: 'unspecified' };
  if (zeroTo(7) && g[7] === 1) return { allowed: false, reason: 'loopback' };
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d carry an IPv4 address: judge that.
  if (zeroTo(5) && f === 0xffff) return withForm(checkV4(embedded(g, 6)), 'IPv4-mapped');
  if (zeroTo(6)) return withForm(checkV4(embedded(g, 6)), 'IPv4-compatible');
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address; the local-use prefix
  // 64:ff9b:1::/48 reaches whatever the operator's translator serves: refuse it outright.
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return withForm(checkV4(embedded(g, 6)), 'NAT64');
  if (a === 0x64 && b === 0xff9b && c === 1) return { allowed: false, reason: 'local-use NAT64' };
  if (a === 0x2002) return withForm(checkV4(embedded(g, 1)), '6to4');
  if (a === 0x100 && b === 0 && c === 0 && d === 0) return { allowed: false, reason: 'discard-only' };
  if (a === 0x2001 && b < 0x200) return { allowed: false, reason: 'IETF protocol assignments (Teredo included)' };
  if (a === 0x2001 && b === 0xdb8) return { allowed: false, reason: 'documentation' };
  if ((a & 0xfe00) === 0xfc00) return { allowed: false, reason: 'unique local (private)' };
  if ((a & 0xffc0) === 0xfe80) return { allowed: false, reason: 'link-local' };
  if ((a & 0xffc0) === 0xfec0) return { allowed: false, reason: 'site-local' };
  if ((a & 0xff00) === 0xff00) return { allowed: false, reason: 'multicast' };
  return { allowed: true };
}

function withForm(verdict: AddressVerdict, form: string): AddressVerdict {
  return verdict.allowed ? verdict : { allowed: false, reason: `${form} ${verdict.reason}` };
}

/**
 * Whether an outbound connection to this IP address is allowed. Anything that is not an IP
 * address is refused (callers pass resolved addresses, never names).
 * @example
 * checkAddress('169.254.169.254') // { allowed: false, reason: 'link-local (cloud metadata)' }
 * checkAddress('::ffff:127.0.0.1') // { allowed: false, reason: 'IPv4-mapped loopback' }
 * checkAddress('93.184.216.34')   // { allowed: true }
 */
export function checkAddress(address: string): AddressVerdict {
  const four = parseIPv4(address);
  if (four !== null) return checkV4(four);
  const six = parseIPv6(address);
  if (six !== null) return checkV6(six);
  return { allowed: false, reason: 'not an IP address' };
}
