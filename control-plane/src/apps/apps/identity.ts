/**
 * @module apps/apps/identity
 * An app's name, slug, hosting and endpoint pass the same rules when the app is created as when a
 * manifest names them later (`reserved-name`, `endpoint-required`, `endpoint-unexpected`): the
 * check runs `validateManifest` on the smallest manifest that carries them.
 */
import { PlatformError, checkHost, manifestErrorToPlatformError, validateManifest } from '@platform/sdk';
import { RESERVED_APP_NAMES } from './reserved.ts';

export interface AppIdentity {
  name: string;
  slug: string;
  hosting: 'self' | 'platform';
  endpoint?: { url: string } | undefined;
}

/** Throws the 422 `PlatformAppManifestInvalidError` a manifest with this identity would get. */
export function checkIdentity(identity: AppIdentity): void {
  const manifest = {
    schemaVersion: 1, name: identity.name, slug: identity.slug, hosting: identity.hosting,
    ...(identity.endpoint === undefined ? {} : { endpoint: identity.endpoint }),
  };
  const result = validateManifest(manifest, { reservedNames: RESERVED_APP_NAMES });
  if (!result.valid) throw manifestErrorToPlatformError(result.error);
}

/**
 * Throws a 422 for an endpoint whose host deliveries would refuse in this mode: an IP literal in a
 * refused range (private, link-local and metadata, unspecified, …, and loopback outside development)
 * or `localhost` outside development. Names are judged on the address they resolve to, at delivery
 * (deliveries/outbound/guarded-agent.ts), where the address connected to is the one checked.
 */
export function checkEndpointHost(endpoint: { url: string } | undefined, options: { allowLoopback: boolean }): void {
  if (endpoint === undefined) return;
  const host = new URL(endpoint.url).hostname;
  const verdict = checkHost(host, options);
  if (verdict.allowed) return;
  throw new PlatformError('PlatformAppManifestInvalidError', `The endpoint's host ${host} is ${verdict.reason}: deliveries are never sent there`, {
    path: ['endpoint', 'url'], fields: { reason: 'endpoint-address' },
  });
}
