// The egress routing rules as pure functions: allow-list matching (exact, case-insensitive,
// trailing dot ignored, `*.` for subdomains only, one port per entry: 443 unless written), IP
// literals, schemes, userinfo, the service's own /v0 with paths that could be read two ways, and
// the request headers a guest may not send.
import { describe, expect, it } from 'vitest';
import { guestRequestHeaders } from '../../runtime/src/egress/headers.ts';
import { allowedBy, ipLiteral, normalizeHost, parseAllowEntry } from '../../runtime/src/egress/hosts.ts';
import { EgressDenied, routeFor } from '../../runtime/src/egress/policy.ts';

const none = new Set<string>();
const route = (url: string, hosts: string[], platform: string | null = null, loopback = none) => routeFor(new URL(url), hosts, platform, loopback);
const reason = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof EgressDenied) return err.reason;
    throw err;
  }
  return 'allowed';
};

describe('allow-list matching', () => {
  it.each([
    ['api.example.com', ['api.example.com'], 'api.example.com'],
    ['api.example.com', ['API.Example.COM.'], 'api.example.com'],
    ['api.example.com', ['example.com'], null],
    ['a.b.example.com', ['*.example.com'], '*.example.com'],
    ['example.com', ['*.example.com'], null],
    ['evilexample.com', ['*.example.com'], null],
  ])('%s against %j → %s', (host, list, expected) => {
    expect(allowedBy(normalizeHost(host), 443, list)).toBe(expected);
  });

  it.each([
    ['api.example.com', 443, ['api.example.com'], 'api.example.com'],
    ['api.example.com', 8443, ['api.example.com'], null],
    ['api.example.com', 8443, ['api.example.com:8443'], 'api.example.com:8443'],
    ['api.example.com', 443, ['api.example.com:8443'], null],
    ['api.example.com', 443, ['api.example.com:8443', 'api.example.com'], 'api.example.com'],
    ['api.example.com', 443, ['api.example.com:443'], 'api.example.com'],
    ['a.b.example.com', 8443, ['*.example.com:8443'], '*.example.com:8443'],
    ['a.b.example.com', 443, ['*.example.com:8443'], null],
    ['example.com', 8443, ['*.example.com:8443'], null],
    ['api.example.com', 8443, ['API.Example.COM.:8443'], 'api.example.com:8443'],
    ['api.example.com', 0, ['api.example.com:0'], null],
    ['api.example.com', 65536, ['api.example.com:65536'], null],
  ])('%s port %i against %j → %s', (host, port, list, expected) => {
    expect(allowedBy(host, port, list)).toBe(expected);
  });

  it('reads entries it is given, admitting nothing for a port out of range', () => {
    expect(parseAllowEntry('api.example.com:65535')).toEqual({ host: 'api.example.com', port: 65535, label: 'api.example.com:65535' });
    expect(parseAllowEntry('api.example.com:1')).toEqual({ host: 'api.example.com', port: 1, label: 'api.example.com:1' });
    expect(parseAllowEntry('evil.example.')).toEqual({ host: 'evil.example', port: 443, label: 'evil.example' });
    expect(parseAllowEntry('api.example.com:0')).toBeNull();
    expect(parseAllowEntry('api.example.com:65536')).toBeNull();
    expect(parseAllowEntry('api.example.com:99999999999999999999')).toBeNull();
  });

  it('recognises IP literals in URL hostnames', () => {
    expect(ipLiteral('[::1]')).toBe('::1');
    expect(ipLiteral('10.1.2.3')).toBe('10.1.2.3');
    expect(ipLiteral('ten.example')).toBeNull();
  });
});

describe('routeFor', () => {
  it('routes the service\'s own /v0 to the platform route', () => {
    expect(route('https://platform.example/v0/blocks/1', [], 'https://platform.example')).toEqual({ kind: 'platform', hostLabel: 'platform-api' });
    expect(route('https://platform.example/v0', [], 'https://platform.example').kind).toBe('platform');
  });

  it.each([
    ['https://platform.example/v0/..%2Finternal/v1/bundles', 'invalid-url'],
    ['https://platform.example/v0/%2e%2e/internal', 'not-allowed'],
    ['https://platform.example/internal/v1/bundles', 'not-allowed'],
    ['https://platform.example/v0x', 'not-allowed'],
    ['http://platform.example/v0/blocks', 'not-allowed'],
  ])('does not let %s reach the API with the token (%s)', (url, expected) => {
    expect(reason(() => route(url, [], 'https://platform.example'))).toBe(expected);
  });

  it.each([
    ['https://user:pw@api.example.com/', 'userinfo'],
    ['https://10.0.0.1/', 'ip-literal'],
    ['https://[fd00::1]/', 'ip-literal'],
    ['http://api.example.com/', 'scheme'],
    ['ftp://api.example.com/', 'scheme'],
    ['https://other.example.com/', 'not-allowed'],
    ['https://api.example.com/ok', 'allowed'],
  ])('%s → %s', (url, expected) => {
    expect(reason(() => route(url, ['api.example.com']))).toBe(expected);
  });

  it('allows http only to the test-only loopback names, on any port', () => {
    expect(route('http://api.test:8080/', ['api.test'], null, new Set(['api.test'])).hostLabel).toBe('api.test');
    expect(route('http://api.test/', ['api.test'], null, new Set(['api.test'])).hostLabel).toBe('api.test');
    expect(reason(() => route('http://api.test:8080/', ['api.test']))).toBe('scheme');
  });

  it('holds test-only loopback names to the port rule over https', () => {
    expect(reason(() => route('https://api.test:8443/', ['api.test'], null, new Set(['api.test'])))).toBe('not-allowed');
    expect(route('https://api.test:8443/', ['api.test:8443'], null, new Set(['api.test'])).hostLabel).toBe('api.test:8443');
  });

  it.each([
    ['https://api.example.com/', ['api.example.com'], 'api.example.com'],
    ['https://api.example.com:443/', ['api.example.com'], 'api.example.com'],
    ['https://api.example.com:8443/', ['api.example.com'], 'not-allowed'],
    ['https://api.example.com:80/', ['api.example.com'], 'not-allowed'],
    ['https://api.example.com:444/', ['api.example.com'], 'not-allowed'],
    ['https://api.example.com:8443/', ['api.example.com:8443'], 'api.example.com:8443'],
    ['https://api.example.com/', ['api.example.com:8443'], 'not-allowed'],
    ['https://api.example.com:8444/', ['api.example.com:8443'], 'not-allowed'],
    ['https://api.example.com:65535/', ['api.example.com:65535'], 'api.example.com:65535'],
    ['https://api.example.com:1/', ['api.example.com:1'], 'api.example.com:1'],
    ['https://x.example.com:8443/', ['*.example.com:8443'], '*.example.com:8443'],
    ['https://x.example.com/', ['*.example.com:8443'], 'not-allowed'],
    ['https://x.example.com:8443/', ['*.example.com'], 'not-allowed'],
    ['http://api.example.com:8443/', ['api.example.com:8443'], 'scheme'],
  ])('%s with %j → %s (443 unless the entry names the port)', (url, list, expected) => {
    let got: string;
    try {
      got = route(url, list).hostLabel;
    } catch (err) {
      got = (err as EgressDenied).reason;
    }
    expect(got).toBe(expected);
  });

  it('says which port was refused and how to allow it', () => {
    expect(() => route('https://api.example.com:8443/x', ['api.example.com'])).toThrow("Port 8443 of api.example.com is not in the app's egressHosts (api.example.com); list api.example.com:8443 to call it");
  });
});

describe('request headers the guest may not send', () => {
  it('drops forwarding claims, hop-by-hop headers and what the proxy writes itself, and keeps the rest', () => {
    const sent: Array<[string, string]> = [
      ['Forwarded', 'for=10.0.0.1'], ['X-Forwarded-For', '10.0.0.1'], ['X-Forwarded-Host', 'admin.internal'], ['x-forwarded-proto', 'http'],
      ['X-Forwarded-Anything-New', '1'], ['Via', '1.1 trusted-proxy'], ['X-Real-IP', '10.0.0.1'], ['True-Client-IP', '10.0.0.1'], ['X-Client-IP', '10.0.0.1'],
      ['Connection', 'keep-alive, X-Hop-Secret'], ['X-Hop-Secret', 'a'], ['Keep-Alive', 'timeout=5'], ['Proxy-Authorization', 'Basic eA=='],
      ['Proxy-Connection', 'keep-alive'], ['TE', 'trailers'], ['Trailer', 'x-sum'], ['Transfer-Encoding', 'chunked'], ['Upgrade', 'websocket'],
      ['Host', 'evil.example'], ['Content-Length', '999'], ['Accept-Encoding', 'identity'], ['Expect', '100-continue'],
      ['Accept', 'application/json'], ['Authorization', 'Bearer app-own'], ['X-Forwarded', 'not a prefix match'], ['Content-Type', 'text/plain'],
    ];
    expect(guestRequestHeaders(sent)).toEqual([
      ['accept', 'application/json'], ['authorization', 'Bearer app-own'], ['x-forwarded', 'not a prefix match'], ['content-type', 'text/plain'],
    ]);
  });

  it('treats every header the guest\'s Connection header names as hop-by-hop, across repeated Connection headers', () => {
    expect(guestRequestHeaders([['connection', 'x-a'], ['Connection', ' X-B ,close'], ['x-a', '1'], ['x-b', '2'], ['x-c', '3']])).toEqual([['x-c', '3']]);
  });
});
