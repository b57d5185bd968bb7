/**
 * @module egress/policy
 * Decides where one outbound URL may go. Calls to the service's own API (`{baseUrl}/v0…`) take the
 * platform route (the install token is added there); every other URL must name an allow-listed
 * host over https (http only for test-only loopback names), without userinfo or IP literals.
 */
import type { EgressBlockReason } from '../metrics/metrics.ts';
import { allowedBy, ipLiteral, normalizeHost } from './hosts.ts';

export const OTHER_HOST = '_other';
export const PLATFORM_HOST = 'platform-api';

export class EgressDenied extends Error {
  readonly reason: EgressBlockReason;
  readonly hostLabel: string;
  constructor(reason: EgressBlockReason, hostLabel: string, message: string) {
    super(message);
    this.reason = reason;
    this.hostLabel = hostLabel;
  }
}

export interface Route {
  kind: 'platform' | 'guest';
  /** Metric label: the allow-list entry, `platform-api`, never free text. */
  hostLabel: string;
}

// Encoded separators and dot segments could be decoded differently by the API's router.
const SUSPICIOUS_PATH = /%2f|%5c|\\|\/\.\.?(\/|$)/i;

export function routeFor(url: URL, egressHosts: readonly string[], platformOrigin: string | null, testLoopbackHosts: ReadonlySet<string>): Route {
  if (url.username !== '' || url.password !== '') throw new EgressDenied('userinfo', OTHER_HOST, 'URLs with a user name or password are not allowed');
  if (platformOrigin !== null && url.origin === platformOrigin && (url.pathname === '/v0' || url.pathname.startsWith('/v0/'))) {
    if (SUSPICIOUS_PATH.test(url.pathname)) throw new EgressDenied('invalid-url', PLATFORM_HOST, 'The API path contains encoded separators or dot segments');
    return { kind: 'platform', hostLabel: PLATFORM_HOST };
  }
  if (ipLiteral(url.hostname) !== null) throw new EgressDenied('ip-literal', OTHER_HOST, `IP addresses cannot be called; add a host name to egressHosts (${url.hostname})`);
  const host = normalizeHost(url.hostname);
  const entry = allowedBy(host, egressHosts);
  if (entry === null) throw new EgressDenied('not-allowed', OTHER_HOST, `The host ${host.slice(0, 253)} is not in the app's egressHosts`);
  if (url.protocol === 'https:') return { kind: 'guest', hostLabel: entry };
  if (url.protocol === 'http:' && testLoopbackHosts.has(host)) return { kind: 'guest', hostLabel: entry };
  throw new EgressDenied('scheme', entry, `Only https: URLs may be called (got ${url.protocol.slice(0, 16)})`);
}
