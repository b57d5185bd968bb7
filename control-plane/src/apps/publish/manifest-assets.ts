/**
 * @module apps/publish/manifest-assets
 * A manifest's `icon` is "an uploaded asset id" (spec), and so are the icons of its blocks and
 * message actions: each must name an asset stored by `POST /v0/assets` (or copied), checked when a
 * version is recorded. One that names nothing is `422 PlatformAppManifestInvalidError` reason
 * `invalid` at its path, so no member's client is sent an icon that does not exist.
 */
import { isAssetId, manifestErrorToPlatformError, type Manifest, type PlatformError } from '@platform/sdk';
import type { AssetService } from '../assets/service.ts';

/** Every asset id a manifest names, with its path. */
function namedAssets(manifest: Manifest): Array<{ id: string; path: Array<string | number> }> {
  const found: Array<{ id: string; path: Array<string | number> }> = [];
  if (manifest.icon !== undefined) found.push({ id: manifest.icon, path: ['icon'] });
  manifest.blocks.forEach((b, i) => { if (b.icon !== undefined) found.push({ id: b.icon, path: ['blocks', i, 'icon'] }); });
  manifest.messageActions.forEach((a, i) => { if (a.icon !== undefined) found.push({ id: a.icon, path: ['messageActions', i, 'icon'] }); });
  return found;
}

/**
 * The error of the first asset id no asset has, or null.
 * @example const missing = await missingAsset(assets, result.manifest); if (missing) throw missing;
 */
export async function missingAsset(assets: Pick<AssetService, 'existing'>, manifest: Manifest): Promise<PlatformError | null> {
  const named = namedAssets(manifest);
  if (named.length === 0) return null;
  const stored = await assets.existing([...new Set(named.map((n) => n.id))]);
  const first = named.find((n) => !stored.has(n.id));
  return first === undefined ? null : manifestErrorToPlatformError({
    _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: first.path,
    message: `No uploaded asset has the id "${first.id}": upload the image first (POST /v0/assets) and name the id it answers`,
  });
}

/**
 * A hosted app's manifest (computed by its code) with the icon `platform deploy` uploaded: taken
 * when the code names no icon or names a file rather than an asset id.
 * @example withUploadedIcon({ name: 'Polls', icon: 'icon.png' }, 'ast_…') // { name: 'Polls', icon: 'ast_…' }
 */
export function withUploadedIcon(manifest: unknown, icon: string | undefined): unknown {
  if (icon === undefined || typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return manifest;
  const named = (manifest as { icon?: unknown }).icon;
  return isAssetId(named) ? manifest : { ...manifest, icon };
}
