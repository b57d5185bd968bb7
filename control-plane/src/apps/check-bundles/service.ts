/**
 * @module apps/check-bundles/service
 * A hosted bundle checked as an upload would check it, without an app and without storing
 * anything: the code is evaluated on a runtime node (the same `ManifestReader` as the upload), and
 * the manifest it computes passes `validateManifest` with what the service knows before an app
 * exists (its reserved domains and names, the hosted-app domain; no recorded slug, no variables).
 * `platform deploy --create` asks this first, so a bundle that does not load creates no app.
 */
import { PlatformError, manifestErrorToPlatformError, validateManifest, type Manifest } from '@platform/sdk';
import type { Context } from 'hono';
import { RESERVED_APP_NAMES } from '../apps/reserved.ts';
import type { AssetService } from '../assets/service.ts';
import { readUpload } from '../bundles/upload.ts';
import type { ServiceDomains } from '../publish/context.ts';
import { missingAsset, withUploadedIcon } from '../publish/manifest-assets.ts';
import type { ManifestReader } from '../publish/manifest-reader.ts';

export interface CheckedBundle {
  sha256: string;
  manifest: Manifest;
}

export interface CheckBundlesService {
  /** Throws what the upload would refuse the bundle with (422 with its reason, 413, 503). */
  check(c: Context, icon?: string): Promise<CheckedBundle>;
}

/**
 * @example
 * const checker = createCheckBundlesService({ reader, assets, domains });
 * const { manifest } = await checker.check(c);
 */
export function createCheckBundlesService(deps: { reader: ManifestReader; assets: Pick<AssetService, 'existing'>; domains: ServiceDomains }): CheckBundlesService {
  return {
    async check(c, icon) {
      const { bundle, sourceMap } = await readUpload(c);
      // No app yet: the runtime node is sent the bytes alone, so the id is a placeholder.
      const read = await deps.reader.read({ appId: 'app_check', sha256: bundle.sha256, bytes: bundle.bytes, ...(sourceMap === null ? {} : { sourceMap: sourceMap.bytes }) });
      const result = validateManifest(withUploadedIcon(read, icon), {
        reservedDomains: deps.domains.reservedDomains,
        reservedNames: RESERVED_APP_NAMES,
        ...(deps.domains.hostedAppDomain === null ? {} : { hostedAppDomain: deps.domains.hostedAppDomain }),
      });
      if (!result.valid) throw manifestErrorToPlatformError(result.error);
      if (result.manifest.hosting !== 'platform') {
        throw new PlatformError('PlatformAppManifestInvalidError', 'Only hosted apps (hosting "platform") upload bundles',
          { path: ['hosting'], fields: { reason: 'hosting-mismatch' } });
      }
      const missing = await missingAsset(deps.assets, result.manifest);
      if (missing !== null) throw missing;
      return { sha256: bundle.sha256, manifest: result.manifest };
    },
  };
}
