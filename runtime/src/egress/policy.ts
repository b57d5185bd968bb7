/**
 * @module egress/policy
 * Decides where one outbound URL may go. Calls to the service's own API (`{baseUrl}/v0…`) take the
 * platform route (the install token is added there); every other URL must name an allow-listed
 * host over https (http only for test-only loopback names), without userinfo or IP literals, on
 * port 443 unless an entry names the port (`api.example.com:8443`). A refused port counts as
 * `not-allowed`: the host is listed, that host and port are not.
 */
import type { EgressBlockReason } from '../metrics/metrics.ts';
import { DEFAULT_PORT, entriesFor, ipLiteral, normalizeHost } from './hosts.ts';

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
  const entries = entriesFor(host, egressHosts);
  if (entries.length === 0) throw new EgressDenied('not-allowed', OTHER_HOST, `The host ${host.slice(0, 253)} is not in the app's egressHosts`);
  const loopbackHttp = url.protocol === 'http:' && testLoopbackHosts.has(host);
  if (url.protocol !== 'https:' && !loopbackHttp) throw new EgressDenied('scheme', entries[0]!.label, `Only https: URLs may be called (got ${url.protocol.slice(0, 16)})`);
  const port = url.port === '' ? (url.protocol === 'https:' ? DEFAULT_PORT : 80) : Number(url.port);
  const entry = entries.find((e) => e.port === port);
  if (entry !== undefined) return { kind: 'guest', hostLabel: entry.label };
  // Test-only loopback names over http: reach whatever port the test's server was given.
  if (loopbackHttp) return { kind: 'guest', hostLabel: entries[0]!.label };
  const listed = entries.map((e) => e.label).join(', ').slice(0, 300);
  throw new EgressDenied('not-allowed', entries[0]!.label, `Port ${port} of ${host.slice(0, 253)} is not in the app's egressHosts (${listed}); list ${host.slice(0, 253)}:${port} to call it`);
}
