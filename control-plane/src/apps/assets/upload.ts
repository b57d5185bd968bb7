/**
 * @module apps/assets/upload
 * `POST /v0/assets` for tooling (an app's icon, which its manifest then names by id): the body is
 * the image itself, at most 5 MB counted while it streams, checked like a copied image (type from
 * the bytes, pixels per side), at most `UPLOADS_PER_MINUTE` a minute per caller.
 */
import type { Context } from 'hono';
import { LIMITS, invalidRequest } from '@platform/sdk';
import type { Caller } from '../../core/auth/caller.ts';
import { readRequestBody } from '../../core/http/read-json.ts';
import type { Kv } from '../../core/kv/kv.ts';
import { callerKey } from '../../core/rate-limit/caller-key.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import type { Asset, AssetService } from './service.ts';

export const UPLOADS_PER_MINUTE = 30;

export interface AssetUploads {
  upload(caller: Caller, c: Context): Promise<Asset & { url: string }>;
}

/**
 * @example
 * const uploads = createAssetUploads({ assets, kv, publicUrl });
 * const asset = await uploads.upload(auth, c); // { id: 'ast_…', contentType: 'image/png', …, url }
 */
export function createAssetUploads(deps: { assets: AssetService; kv: Kv; publicUrl: string }): AssetUploads {
  const max = LIMITS.blockData.imageBytes;
  return {
    async upload(caller, c) {
      await rateLimit(deps.kv, { key: `asset-uploads:${callerKey(caller)}`, limit: UPLOADS_PER_MINUTE, windowMs: 60_000 });
      const bytes = await readRequestBody(c, max);
      if (bytes.byteLength === 0) throw invalidRequest([{ path: [], message: 'The body must be the image', code: 'empty' }], 'The body must be the image');
      const stored = await deps.assets.store(bytes);
      if (!stored.ok) throw invalidRequest([{ path: [], message: stored.message, code: `image_${stored.problem}` }], stored.message);
      return { ...stored.asset, url: `${deps.publicUrl}/assets/${stored.asset.id}` };
    },
  };
}
