/**
 * @module apps/assets/service
 * Images stored once by their content and served from our origin: copies of the images trees name
 * (`copy.ts`) and uploads by tooling (app icons). An asset's id is `ast_` and the base32 of its
 * bytes' sha256, so the same bytes are one asset however they came. The bytes live in the
 * database, or in the S3-compatible store when one is configured (BUNDLE_STORE=s3, like bundles),
 * under `{prefix}{sha256}`; bytes read back are hashed again before they are served.
 */
import { createHash } from 'node:crypto';
import { LIMITS } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { ID_PREFIX, base32 } from '../../core/ids/ids.ts';
import type { ObjectStore } from '../../core/object-store/object-store.ts';
import { sniffImage, type ImageType } from './sniff.ts';
import { findAsset, findAssetContent, insertAsset, storedAssets, type AssetRow } from './store.ts';

/** An asset as the API answers it. */
export interface Asset {
  id: string;
  contentType: ImageType;
  bytes: number;
  width: number;
  height: number;
}

export type StoreOutcome =
  | { ok: true; asset: Asset }
  | { ok: false; problem: 'bytes' | 'type' | 'pixels' | 'unreadable'; message: string };

export interface AssetService {
  /** Checks the bytes (type, 5 MB, pixels per side) and stores them, or says which check failed. */
  store(bytes: Uint8Array): Promise<StoreOutcome>;
  get(id: string): Promise<Asset | null>;
  /** The asset with its bytes, for serving. */
  read(id: string): Promise<{ asset: Asset; bytes: Uint8Array } | null>;
  /** Which of `ids` are stored. */
  existing(ids: readonly string[]): Promise<Set<string>>;
}

export interface AssetServiceDeps {
  db: Db;
  clock: Clock;
  /** Where the bytes go instead of the database; null: the database. */
  objects: ObjectStore | null;
  /** Key prefix of the objects (`assets/`). */
  prefix: string;
}

export const sha256Of = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** The asset id of these bytes. */
export const assetIdOf = (bytes: Uint8Array): string => `${ID_PREFIX.asset}_${base32(sha256Of(bytes))}`;

const toAsset = (row: AssetRow): Asset => ({ id: row.id, contentType: row.content_type, bytes: row.size_bytes, width: row.width, height: row.height });

/**
 * @example
 * const assets = createAssetsService({ db, clock, objects: null, prefix: 'assets/' });
 * const stored = await assets.store(bytes); // { ok: true, asset: { id: 'ast_…', contentType: 'image/png', … } }
 */
export function createAssetsService(deps: AssetServiceDeps): AssetService {
  const keyOf = (sha256: string) => `${deps.prefix}${sha256}`;
  return {
    async store(bytes) {
      if (bytes.byteLength > LIMITS.blockData.imageBytes) return { ok: false, problem: 'bytes', message: 'Copied images are at most 5 MB' };
      const sniffed = sniffImage(bytes);
      if (!sniffed.ok) return { ok: false, problem: sniffed.problem, message: sniffed.message };
      const sha256 = sha256Of(bytes).toString('hex');
      const row: AssetRow = {
        id: assetIdOf(bytes), sha256, content_type: sniffed.contentType, size_bytes: bytes.byteLength, width: sniffed.width, height: sniffed.height,
      };
      if ((await storedAssets(deps.db, [row.id])).size === 0) {
        // The object first, then its index row: an indexed asset always has its bytes.
        if (deps.objects !== null) await deps.objects.put(keyOf(sha256), bytes);
        await insertAsset(deps.db, { ...row, content: deps.objects === null ? bytes : null, createdAt: new Date(deps.clock.now()) });
      }
      return { ok: true, asset: toAsset(row) };
    },
    async get(id) {
      const row = await findAsset(deps.db, id);
      return row === undefined ? null : toAsset(row);
    },
    async read(id) {
      const row = await findAssetContent(deps.db, id);
      if (row === undefined) return null;
      let bytes = row.content;
      if (bytes === null) {
        if (deps.objects === null) throw new Error(`Asset ${id} is in an object store, and none is configured (BUNDLE_STORE)`);
        bytes = await deps.objects.get(keyOf(row.sha256));
        if (bytes === null) throw new Error(`Asset ${id} is indexed but missing from the object store`);
      }
      if (sha256Of(bytes).toString('hex') !== row.sha256) throw new Error(`Asset ${id} is corrupt in its store`);
      return { asset: toAsset(row), bytes };
    },
    existing: (ids) => storedAssets(deps.db, ids),
  };
}
