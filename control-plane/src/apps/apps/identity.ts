/**
 * @module apps/apps/identity
 * An app's name, slug, hosting and endpoint pass the same rules when the app is created as when a
 * manifest names them later (`reserved-name`, `endpoint-required`, `endpoint-unexpected`): the
 * check runs `validateManifest` on the smallest manifest that carries them.
 */
import { manifestErrorToPlatformError, validateManifest } from '@platform/sandbox-lib';
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
