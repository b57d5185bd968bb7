/**
 * @module cli/icon
 * The app's icon for `platform deploy`: the image file the manifest's `icon` names (a path, as
 * `defineApp({ icon: 'icon.png' })` writes it), else the first of `icon.png`, `icon.webp`,
 * `icon.jpg`, `icon.jpeg`, `icon.gif` in the project directory. It is uploaded (`POST /v0/assets`)
 * and its asset id is what the version's manifest names. An `icon` that is an asset id already is
 * left alone; no file, no upload.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isAssetId } from '@platform/sdk';

/** The file names looked for beside the app, in this order. */
export const ICON_FILES = ['icon.png', 'icon.webp', 'icon.jpg', 'icon.jpeg', 'icon.gif'] as const;

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => null))?.isFile() === true;

/** The icon file to upload, or null (none, or the manifest names an asset id). */
export async function iconFile(dir: string, manifest: Record<string, unknown>): Promise<string | null> {
  const named = manifest.icon;
  if (isAssetId(named)) return null;
  if (typeof named === 'string') {
    const path = resolve(dir, named);
    if (!(await isFile(path))) throw new Error(`The manifest's icon names ${named}, which is neither an uploaded asset id nor a file in ${dir}`);
    return path;
  }
  for (const name of ICON_FILES) if (await isFile(resolve(dir, name))) return resolve(dir, name);
  return null;
}

/**
 * Uploads the app's icon when there is a file for it: its asset id, or null.
 * @example
 * const icon = await uploadAppIcon({ dir: cwd, manifest, upload: service.uploadAsset, say });
 */
export async function uploadAppIcon(input: {
  dir: string;
  manifest: Record<string, unknown>;
  upload: (bytes: Uint8Array) => Promise<{ asset: { id: string } }>;
  say: (line: string) => void;
}): Promise<string | null> {
  const path = await iconFile(input.dir, input.manifest);
  if (path === null) return null;
  const { asset } = await input.upload(await readFile(path));
  input.say(`Uploaded the icon ${path} (${asset.id})`);
  return asset.id;
}
