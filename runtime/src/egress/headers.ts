/**
 * @module egress/headers
 * Which request headers of a guest's fetch the egress proxy passes on, and which response headers
 * it hands back. The guest speaks to the proxy, not to the upstream: it may not write what a proxy
 * writes about the connection or about itself.
 */

/** Why the proxy removes a request header the guest set. */
type Why =
  /**
   * Hop-by-hop (RFC 9110 §7.6.1, RFC 9112): it describes the guest→proxy connection, not the
   * request, and a proxy must not forward it; some of these would also let the guest steer the
   * proxy's own connection to the upstream (request smuggling through Transfer-Encoding, an Upgrade
   * to another protocol, credentials meant for a proxy).
   */
  | 'hop-by-hop'
  /**
   * A claim about where the request came from, which only a proxy that saw the client may make.
   * Upstreams (our own control plane included) that trust a proxy in front of them read these for
   * the client's address, host and scheme (rate limits, audit logs, allow-lists, redirects built
   * from `X-Forwarded-Host`): a guest must not forge them in the name of our egress addresses.
   */
  | 'forwarding'
  /** Written by the proxy itself from the URL and the body it sends (undici refuses `expect`). */
  | 'proxy-owned';

/**
 * Request headers the guest may not send, as one table: lower-case names, or prefixes ending in `-`.
 * Besides these, every header that the guest's own `Connection` header names is hop-by-hop too.
 */
export const STRIPPED_REQUEST_HEADERS: ReadonlyArray<readonly [name: string, why: Why]> = [
  ['connection', 'hop-by-hop'],
  ['keep-alive', 'hop-by-hop'],
  ['proxy-', 'hop-by-hop'], // Proxy-Authorization, Proxy-Authenticate, Proxy-Connection, …
  ['te', 'hop-by-hop'],
  ['trailer', 'hop-by-hop'],
  ['transfer-encoding', 'hop-by-hop'],
  ['upgrade', 'hop-by-hop'],
  ['forwarded', 'forwarding'],
  ['x-forwarded-', 'forwarding'], // -For, -Host, -Proto, -Port, -Prefix, -Server, …
  ['via', 'forwarding'],
  ['x-real-ip', 'forwarding'],
  ['true-client-ip', 'forwarding'],
  ['x-client-ip', 'forwarding'],
  ['host', 'proxy-owned'],
  ['content-length', 'proxy-owned'],
  ['accept-encoding', 'proxy-owned'], // the proxy decodes bodies itself and sets its own
  ['expect', 'proxy-owned'],
];

/** Response headers not handed to the guest: hop-by-hop between the upstream and the proxy. */
export const STRIPPED_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'trailer']);

const EXACT = new Set(STRIPPED_REQUEST_HEADERS.filter(([n]) => !n.endsWith('-')).map(([n]) => n));
const PREFIXES = STRIPPED_REQUEST_HEADERS.filter(([n]) => n.endsWith('-')).map(([n]) => n);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

/**
 * The guest's request headers without those it may not send (names lower-cased, order kept).
 * @example guestRequestHeaders([['Connection', 'x-trace'], ['X-Trace', '1'], ['Accept', 'text/plain']]) // [['accept', 'text/plain']]
 */
export function guestRequestHeaders(list: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const named = new Set<string>();
  for (const [name, value] of list) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) {
      const t = token.trim().toLowerCase();
      if (TOKEN.test(t)) named.add(t);
    }
  }
  const out: Array<[string, string]> = [];
  for (const [rawName, value] of list) {
    const name = rawName.toLowerCase();
    if (EXACT.has(name) || named.has(name) || PREFIXES.some((p) => name.startsWith(p))) continue;
    out.push([name, value]);
  }
  return out;
}
