/**
 * @module apps/bundles/service
 * Hosted bundles, content-addressed by the sha256 of their bytes, shared by every control plane:
 * the `bundles` table indexes them, and holds their bytes too unless an object store is configured
 * (BUNDLE_STORE=s3), which then keeps them under `{prefix}{sha256}.js`. No replica keeps a bundle on
 * its own disk. Bytes read back are hashed again: what does not match its address is refused, not
 * served to a runtime node. The source maps uploaded with bundles are kept the same way, in the
 * `source_maps` table (objects `{prefix}{sha256}.map`): `createBundlesService({ …, table: 'source_maps' })`.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { ObjectStore } from '../../core/object-store/object-store.ts';
import { bundleExists, findBundle, touchStoredBundle, upsertBundleContent, upsertBundleIndex, type BlobTable } from './store.ts';

export interface BundlesService {
  /** Stores the bytes under their sha256 (only refreshing its upload time when they are already there). */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when no bundle has that hash. */
  get(sha256: string): Promise<Uint8Array | null>;
  has(sha256: string): Promise<boolean>;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface BundlesServiceDeps {
  db: Db;
  clock: Clock;
  /** Where the bytes go instead of the database (BUNDLE_STORE=s3); null: the database. */
  objects: ObjectStore | null;
  /** Key prefix of the objects. */
  prefix?: string;
  /** `bundles` (default) or `source_maps`. */
  table?: BlobTable;
}

const SUFFIX: Record<BlobTable, string> = { bundles: '.js', source_maps: '.map' };

/** The object key of a bundle or map (the hash is checked first: it becomes part of a URL path). */
export function objectKey(prefix: string, sha256: string, table: BlobTable = 'bundles'): string {
  if (!SHA256_HEX.test(sha256)) throw new Error('A bundle is addressed by 64 lowercase hex digits');
  return `${prefix}${sha256}${SUFFIX[table]}`;
}

/**
 * @example
 * const bundles = createBundlesService({ db, clock, objects: null });
 * await bundles.put(sha256Hex(bytes), bytes);
 */
export function createBundlesService(deps: BundlesServiceDeps): BundlesService {
  const prefix = deps.prefix ?? '';
  const table = deps.table ?? 'bundles';
  const key = (sha256: string) => objectKey(prefix, sha256, table);
  const verified = (sha256: string, bytes: Uint8Array, where: string): Uint8Array => {
    if (sha256Hex(bytes) !== sha256) throw new Error(`Bundle ${sha256} is corrupt in ${where}`);
    return bytes;
  };

  return {
    async put(sha256, bytes) {
      if (!SHA256_HEX.test(sha256) || sha256Hex(bytes) !== sha256) throw new Error('The bytes do not hash to the address given');
      const at = new Date(deps.clock.now());
      if (deps.objects === null) {
        if (!(await touchStoredBundle(deps.db, sha256, at, table))) await upsertBundleContent(deps.db, sha256, bytes, at, table);
        return;
      }
      // Indexed (and so protected from the collector for its grace period) before the object is written.
      if (await upsertBundleIndex(deps.db, sha256, bytes.byteLength, at, table)) return;
      if (!(await deps.objects.has(key(sha256)))) await deps.objects.put(key(sha256), bytes);
    },
    async get(sha256) {
      if (!SHA256_HEX.test(sha256)) return null;
      const row = await findBundle(deps.db, sha256, table);
      if (row === undefined) return null;
      if (row.content !== null) return verified(sha256, row.content, 'the database');
      if (deps.objects === null) throw new Error(`Bundle ${sha256} is in an object store, and none is configured (BUNDLE_STORE)`);
      const bytes = await deps.objects.get(key(sha256));
      if (bytes === null) throw new Error(`Bundle ${sha256} is indexed but missing from the object store`);
      return verified(sha256, bytes, 'the object store');
    },
    has: (sha256) => (SHA256_HEX.test(sha256) ? bundleExists(deps.db, sha256, table) : Promise.resolve(false)),
  };
}
