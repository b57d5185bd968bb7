/**
 * @module apps/bundles/store
 * Hosted bundles, stored content-addressed by the sha256 of their bytes. `BundleStore` is the seam
 * an object store can replace; the default keeps files under `DATA_DIR/bundles/`. Replicas that
 * share no disk need a shared store (an object store behind this interface).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface BundleStore {
  /** Stores the bytes under their sha256 (a no-op when they are already there). */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when no bundle has that hash. */
  get(sha256: string): Promise<Uint8Array | null>;
  has(sha256: string): Promise<boolean>;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * @example
 * const bundles = createFsBundleStore({ dir: join(config.dataDir, 'bundles') });
 * await bundles.put(sha, bytes);
 */
export function createFsBundleStore(options: { dir: string }): BundleStore {
  const pathOf = (sha256: string) => {
    // The hash becomes a file name: anything but 64 hex digits could walk out of the directory.
    if (!SHA256_HEX.test(sha256)) throw new Error('A bundle is addressed by 64 lowercase hex digits');
    return join(options.dir, sha256.slice(0, 2), `${sha256}.js`);
  };
  const exists = async (path: string) => {
    try {
      await stat(path);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  };

  return {
    async put(sha256, bytes) {
      if (sha256Hex(bytes) !== sha256) throw new Error('The bytes do not hash to the address given');
      const path = pathOf(sha256);
      if (await exists(path)) return;
      await mkdir(join(options.dir, sha256.slice(0, 2)), { recursive: true });
      // Written aside and renamed into place: a reader never sees half a bundle, and two replicas
      // writing the same bundle at once both end with the same complete file.
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes, { flag: 'wx' });
      try {
        await rename(tmp, path);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        throw err;
      }
    },
    async get(sha256) {
      try {
        const bytes = await readFile(pathOf(sha256));
        // A file changed on disk is not the bundle that was uploaded: refuse to serve it.
        if (sha256Hex(bytes) !== sha256) throw new Error(`Bundle ${sha256} is corrupt on disk`);
        return bytes;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    has: (sha256) => exists(pathOf(sha256)),
  };
}
