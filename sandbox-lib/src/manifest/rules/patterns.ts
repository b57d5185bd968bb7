/**
 * @module manifest/rules/patterns
 * Reference patterns: syntax and bounds (`PlatformAppPatternInvalidError`), then hosts: a wildcard
 * right under a public suffix (`public-suffix-host`) and a host no claimed domain covers
 * (`domain-unclaimed`). A pattern host under the service's domains needs no check of its own: the
 * claimed domain covering it would overlap them, which the hosts rule already refuses.
 */
import { hostCovers, isPublicSuffix } from '../../hosts/index.ts';
import { parseReferencePattern } from '../model/patterns.ts';
import { manifestInvalid, patternInvalid, type ManifestRule } from '../model/rule.ts';

export const patternsRule: ManifestRule = (manifest) => {
  for (const [i, reference] of manifest.references.entries()) {
    for (const [j, { pattern: source }] of reference.patterns.entries()) {
      const path = ['references', i, 'patterns', j, 'pattern'];
      const parsed = parseReferencePattern(source);
      if (!parsed.ok) return patternInvalid(parsed.reason, parsed.message, path);
      const { host, wildcard } = parsed.pattern;
      if (wildcard && isPublicSuffix(host)) {
        return manifestInvalid('public-suffix-host', `The pattern spans the public suffix ${host}`, path);
      }
      if (!manifest.domains.some((domain) => hostCovers(domain, host))) {
        return patternInvalid('domain-unclaimed', `No claimed domain covers ${wildcard ? '*.' : ''}${host}; add it to domains`, path);
      }
    }
  }
  return null;
};
