/**
 * @module manifest/rules/identity
 * `reserved-name`, `slug-mismatch`, `hosting-mismatch`: the manifest names the app the service
 * knows, with a name and slug nobody may take.
 */
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const identityRule: ManifestRule = (manifest, context) => {
  const serviceName = (context.serviceName ?? 'platform').toLowerCase();
  if (serviceName !== '' && manifest.slug.startsWith(serviceName)) {
    return manifestInvalid('reserved-name', `App slugs may not start with "${serviceName}"`, ['slug']);
  }
  const reserved = new Set((context.reservedNames ?? []).map((name) => name.trim().toLowerCase()));
  if (reserved.has(manifest.slug)) return manifestInvalid('reserved-name', `The slug "${manifest.slug}" is reserved`, ['slug']);
  if (reserved.has(manifest.name.trim().toLowerCase())) return manifestInvalid('reserved-name', `The name "${manifest.name}" is reserved`, ['name']);
  if (context.recordedSlug !== undefined && manifest.slug !== context.recordedSlug) {
    return manifestInvalid('slug-mismatch', `The slug "${manifest.slug}" differs from the app's slug "${context.recordedSlug}"`, ['slug']);
  }
  if (context.recordedHosting !== undefined && manifest.hosting !== context.recordedHosting) {
    return manifestInvalid('hosting-mismatch', `Hosting "${manifest.hosting}" differs from the app's hosting "${context.recordedHosting}"`, ['hosting']);
  }
  return null;
};
