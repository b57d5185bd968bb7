// Outbound hosts with ports: `host`, `*.host`, `host:port` and `*.host:port` (1–65535, decimal,
// no leading zeros, `:443` not written since it is the default). What validation accepts, what it
// refuses and with which message, and that adding a port (or a host on a new port) widens access.
import { describe, expect, it } from 'vitest';
import { ManifestSchema, accessWidening, parseEgressHost, validateManifest, type Manifest, type ManifestContext } from '@platform/sdk';
import { baseManifest, manifestWith } from './manifest-fixtures.ts';

describe('egressHosts entries with ports', () => {
  it.each([
    ['api.example.com:8443', { host: 'api.example.com', wildcard: false, port: 8443 }],
    ['api.example.com:1', { host: 'api.example.com', wildcard: false, port: 1 }],
    ['api.example.com:65535', { host: 'api.example.com', wildcard: false, port: 65535 }],
    ['api.example.com:80', { host: 'api.example.com', wildcard: false, port: 80 }],
    ['*.example.com:8443', { host: 'example.com', wildcard: true, port: 8443 }],
    ['api.example.com', { host: 'api.example.com', wildcard: false, port: null }],
    ['*.example.com', { host: 'example.com', wildcard: true, port: null }],
  ])('accepts %s', (entry, parsed) => {
    expect(parseEgressHost(entry)).toEqual({ ok: true, host: parsed });
    expect(validateManifest(manifestWith((m) => m.egressHosts.push(entry)))).toMatchObject({ valid: true, manifest: { egressHosts: ['api.example.com', entry] } });
  });

  it.each([
    ['port 0', 'api.example.com:0', 'Port 0 of "api.example.com:0" is out of range (1–65535)'],
    ['port 65536', 'api.example.com:65536', 'Port 65536 of "api.example.com:65536" is out of range (1–65535)'],
    ['a port far out of range', 'api.example.com:99999999999', 'The port of "api.example.com:99999999999" is not a number from 1 to 65535'],
    ['a name for a port', 'api.example.com:https', 'The port of "api.example.com:https" is not a number from 1 to 65535'],
    ['a port with a sign', 'api.example.com:+8443', 'The port of "api.example.com:+8443" is not a number from 1 to 65535'],
    ['a negative port', 'api.example.com:-1', 'The port of "api.example.com:-1" is not a number from 1 to 65535'],
    ['a fractional port', 'api.example.com:84.43', 'The port of "api.example.com:84.43" is not a number from 1 to 65535'],
    ['an empty port', 'api.example.com:', 'The port of "api.example.com:" is not a number from 1 to 65535'],
    ['a port with leading zeros', 'api.example.com:08443', 'The port of "api.example.com:08443" has leading zeros; write "api.example.com:8443"'],
    ['the default port written out', 'api.example.com:443', '443 is the default port; write "api.example.com" without it'],
    ['two ports', 'api.example.com:8443:8444', '"api.example.com:8443:8444" is not an outbound host: a lowercase host name, optionally starting with *. and ending with :port'],
    ['a scheme', 'https://api.example.com:8443', '"https://api.example.com:8443" is not an outbound host: a lowercase host name, optionally starting with *. and ending with :port'],
    ['an IP literal with a port', '10.0.0.1:8443', '"10.0.0.1:8443" is not an outbound host: a lowercase host name, optionally starting with *. and ending with :port'],
    ['a bracketed IPv6 literal with a port', '[::1]:8443', '"[::1]:8443" is not an outbound host: a lowercase host name, optionally starting with *. and ending with :port'],
    ['upper case with a port', 'API.example.com:8443', '"API.example.com:8443" is not an outbound host: a lowercase host name, optionally starting with *. and ending with :port'],
    ['a wildcard port', 'api.example.com:*', 'The port of "api.example.com:*" is not a number from 1 to 65535'],
    ['a port range', 'api.example.com:8000-9000', 'The port of "api.example.com:8000-9000" is not a number from 1 to 65535'],
  ])('refuses %s (%s) as invalid, at its place in the list', (_what, entry, message) => {
    expect(parseEgressHost(entry)).toEqual({ ok: false, message });
    expect(validateManifest(manifestWith((m) => m.egressHosts.push(entry)))).toEqual({
      valid: false,
      error: { _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', message, path: ['egressHosts', 1] },
    });
  });

  it.each<[string, string, ManifestContext | undefined, string]>([
    ['a wildcard with a port right under a public suffix', '*.github.io:8443', undefined, 'public-suffix-host'],
    ['a host with a port under the service', 'api.platform.test:8443', { reservedDomains: ['platform.test'] }, 'reserved-domain'],
    ['a wildcard with a port over an ICANN suffix', '*.co.uk:8443', undefined, 'public-suffix-host'],
    ['a wildcard with a port over the service', '*.platform.test:8443', { reservedDomains: ['platform.test'] }, 'reserved-domain'],
  ])('applies the host rules to the host part: %s', (_what, entry, context, reason) => {
    const result = validateManifest(manifestWith((m) => m.egressHosts.push(entry)), context);
    expect(result).toMatchObject({ valid: false, error: { reason, path: ['egressHosts', 1] } });
  });

  it('counts host:port entries toward the 50 outbound hosts', () => {
    const hosts = Array.from({ length: 51 }, (_, i) => `api.example.com:${8000 + i}`);
    expect(validateManifest({ ...baseManifest(), egressHosts: hosts })).toMatchObject({ valid: false, error: { reason: 'too-many-egress-hosts' } });
    expect(validateManifest({ ...baseManifest(), egressHosts: hosts.slice(0, 50) })).toMatchObject({ valid: true });
  });
});

describe('access widening with ports', () => {
  const version = (egressHosts: string[]): Manifest => ManifestSchema.parse({ ...baseManifest(), egressHosts });

  it.each([
    ['a port on a host already listed', ['api.example.com'], ['api.example.com', 'api.example.com:8443'], ['api.example.com:8443']],
    ['a host moved from 443 to another port', ['api.example.com'], ['api.example.com:8443'], ['api.example.com:8443']],
    ['a host moved from another port to 443', ['api.example.com:8443'], ['api.example.com'], ['api.example.com']],
    ['a host moved to another port', ['api.example.com:8443'], ['api.example.com:8444'], ['api.example.com:8444']],
    ['a port on a wildcard', ['*.example.com'], ['*.example.com:8443'], ['*.example.com:8443']],
    ['a wildcard on a port where one host was listed', ['api.example.com:8443'], ['*.example.com:8443'], ['*.example.com:8443']],
  ])('adding %s widens', (_what, before, after, added) => {
    expect(accessWidening(version(before), version(after))).toEqual(added.map((detail) => ({ kind: 'egressHost', detail })));
  });

  it.each([
    ['the same host:port entries', ['api.example.com:8443', '*.example.com:9443'], ['*.example.com:9443', 'api.example.com:8443']],
    ['a port removed from the list', ['api.example.com', 'api.example.com:8443'], ['api.example.com']],
    ['a repeated entry', ['api.example.com:8443'], ['api.example.com:8443', 'api.example.com:8443']],
  ])('%s does not widen', (_what, before, after) => {
    expect(accessWidening(version(before), version(after))).toEqual([]);
  });
});
