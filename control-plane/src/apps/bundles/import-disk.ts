/**
 * @module apps/bundles/import-disk
 * Bundles of a data directory from before bundles moved to the database (`DATA_DIR/bundles/xx/
 * <sha256>.js`) are imported when a control plane starts: each file whose hash is not stored yet is
 * read, checked against its name and put in the bundle store; a file that does not hash to its name
 * is skipped with a warning. The files are left in place (an operator removes the folder once a
 * start logged the import), and a later start reads only the listing: one query finds them stored.
 * Replicas starting at once with the same folder store the same bytes under the same hash.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { SHA256_HEX, sha256Hex, type BundlesService } from './service.ts';
import { storedAmong } from './store.ts';

export interface DiskImport {
  imported: number;
  corrupt: number;
}

/** `dir/xx/<sha256>.js` files, by hash; none when the folder does not exist. */
async function listDiskBundles(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let shards: Dirent[];
  try {
    shards = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw err;
  }
  for (const shard of shards.filter((s) => s.isDirectory() && /^[0-9a-f]{2}$/.test(s.name)).map((s) => s.name)) {
    for (const file of await readdir(join(dir, shard))) {
      const sha256 = file.slice(0, -3);
      if (file.endsWith('.js') && SHA256_HEX.test(sha256) && sha256.startsWith(shard)) found.set(sha256, join(dir, shard, file));
    }
  }
  return found;
}

/**
 * @example
 * await importDiskBundles({ dir: join(config.dataDir, 'bundles'), db, bundles, logger });
 */
export async function importDiskBundles(deps: { dir: string; db: Db; bundles: BundlesService; logger?: Logger }): Promise<DiskImport> {
  const files = await listDiskBundles(deps.dir);
  const stored = await storedAmong(deps.db, [...files.keys()]);
  const result: DiskImport = { imported: 0, corrupt: 0 };
  for (const [sha256, path] of files) {
    if (stored.has(sha256)) continue;
    const bytes = await readFile(path);
    if (sha256Hex(bytes) !== sha256) {
      result.corrupt++;
      deps.logger?.warn({ path }, 'bundle file does not hash to its name: not imported');
      continue;
    }
    await deps.bundles.put(sha256, bytes);
    result.imported++;
  }
  if (result.imported > 0 || result.corrupt > 0) {
    deps.logger?.info({ ...result, dir: deps.dir }, 'bundles imported from the data directory into the bundle store; the folder may be removed');
  }
  return result;
}
