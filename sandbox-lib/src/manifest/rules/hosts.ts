/**
 * @module manifest/rules/hosts
 * `public-suffix-host` and `reserved-domain` for claimed domains and outbound hosts. A claimed
 * domain covers its subdomains, so it may neither be a public suffix nor overlap the service's
 * domains in either direction; an outbound host is one host unless it starts with `*.`, whatever
 * its port.
 */
import { isPublicSuffix, overlapsAny, parseEgressHost } from '../../hosts/index.ts';
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const hostsRule: ManifestRule = (manifest, context) => {
  const reserved = context.reservedDomains ?? [];
  for (const [i, domain] of manifest.domains.entries()) {
    if (isPublicSuffix(domain)) {
      return manifestInvalid('public-suffix-host', `"${domain}" is a public suffix; claim a domain you own under it`, ['domains', i]);
    }
    const hit = overlapsAny({ host: domain, wildcard: false }, reserved, true);
    if (hit) return manifestInvalid('reserved-domain', `"${domain}" overlaps the service's own domain ${hit}`, ['domains', i]);
  }
  for (const [i, value] of manifest.egressHosts.entries()) {
    const parsed = parseEgressHost(value);
    if (!parsed.ok) continue; // The schema already rejected it.
    const { host } = parsed;
    if (host.wildcard && isPublicSuffix(host.host)) {
      return manifestInvalid('public-suffix-host', `"${value}" spans the public suffix ${host.host}`, ['egressHosts', i]);
    }
    const hit = overlapsAny(host, reserved, false);
    if (hit) return manifestInvalid('reserved-domain', `"${value}" is under the service's own domain ${hit}`, ['egressHosts', i]);
  }
  return null;
};
