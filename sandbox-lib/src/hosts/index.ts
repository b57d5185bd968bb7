/**
 * @module hosts
 * Host names as the manifest uses them: outbound hosts, claimed link domains, pattern hosts and the
 * MCP host. One place decides what a valid host is, what "covers" means and what spans a public
 * suffix (the public suffix list comes from `tldts`, which tracks publicsuffix.org, private
 * section included, so `github.io` counts as a suffix too; `public-suffix.ts`, apart, so code that
 * only compares hosts does not carry the list).
 */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_HOST_LENGTH = 253;

/**
 * True for a lowercase DNS host name of at least two labels (IDNs in punycode), not an IP literal.
 * @example isHostname('api.example.com') // true
 */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > MAX_HOST_LENGTH) return false;
  const labels = value.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  // A last label of digits only is an IPv4 literal (or a dotted number); never a host name here.
  return !/^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}

export interface HostPattern {
  /** The host, without the wildcard label. */
  readonly host: string;
  /** True for `*.host`: any subdomain of `host` (not `host` itself). */
  readonly wildcard: boolean;
}

/**
 * Reads `host` or `*.host`; `null` when it is neither.
 * @example parseHostPattern('*.example.com') // { host: 'example.com', wildcard: true }
 */
export function parseHostPattern(value: string): HostPattern | null {
  const wildcard = value.startsWith('*.');
  const host = wildcard ? value.slice(2) : value;
  return isHostname(host) ? { host, wildcard } : null;
}

/** An outbound host (a manifest's `egressHosts` entry): a host pattern and the one port it admits. */
export interface EgressHost extends HostPattern {
  /** The port written after the host, or `null` for none: 443, the https default. */
  readonly port: number | null;
}

/**
 * Reads `host`, `*.host`, `host:port` or `*.host:port` (port 1–65535 in decimal without leading
 * zeros; `:443` is not written, being the default), or says what is wrong with it.
 * @example parseEgressHost('*.example.com:8443') // { ok: true, host: { host: 'example.com', wildcard: true, port: 8443 } }
 * @example parseEgressHost('api.example.com:0') // { ok: false, message: 'Port 0 of "api.example.com:0" is out of range (1–65535)' }
 */
export function parseEgressHost(value: string): { ok: true; host: EgressHost } | { ok: false; message: string } {
  const colon = value.lastIndexOf(':');
  const hostPart = colon === -1 ? value : value.slice(0, colon);
  const portText = colon === -1 ? null : value.slice(colon + 1);
  const shown = value.slice(0, 300);
  const pattern = parseHostPattern(hostPart);
  if (pattern === null) {
    return { ok: false, message: `"${shown}" is not an outbound host: a lowercase host name, optionally starting with *. and ending with :port` };
  }
  if (portText === null) return { ok: true, host: { ...pattern, port: null } };
  if (!/^[0-9]{1,10}$/.test(portText)) return { ok: false, message: `The port of "${shown}" is not a number from 1 to 65535` };
  const port = Number(portText);
  if (port < 1 || port > 65535) return { ok: false, message: `Port ${port} of "${shown}" is out of range (1–65535)` };
  if (portText.startsWith('0')) return { ok: false, message: `The port of "${shown}" has leading zeros; write "${hostPart}:${port}"` };
  if (port === 443) return { ok: false, message: `443 is the default port; write "${hostPart}" without it` };
  return { ok: true, host: { ...pattern, port } };
}

/**
 * True when `host` is `domain` or one of its subdomains.
 * @example hostCovers('example.com', 'links.example.com') // true
 */
export function hostCovers(domain: string, host: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

export { isPublicSuffix } from './public-suffix.ts';

/**
 * The reserved domain a claim on `pattern` overlaps, or `null`: the host lies under a reserved domain,
 * or (for claims that cover subdomains) a reserved domain lies under the claim.
 * @example overlapsAny({ host: 'example.com', wildcard: false }, ['api.example.com'], true) // 'api.example.com'
 */
export function overlapsAny(pattern: HostPattern, reserved: readonly string[], coversSubdomains: boolean): string | null {
  for (const domain of reserved) {
    const own = domain.toLowerCase();
    if (hostCovers(own, pattern.host)) return domain;
    if ((coversSubdomains || pattern.wildcard) && hostCovers(pattern.host, own)) return domain;
  }
  return null;
}
