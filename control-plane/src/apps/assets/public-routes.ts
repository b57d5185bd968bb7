/**
 * @module apps/assets/public-routes
 * `GET /assets/{id}`: an asset's bytes from our origin, the way members' clients load every image
 * (never from an app's URL). The id is the content's hash, so an answer never changes: it is cached
 * for a year as immutable. Served with the type read from the bytes, `nosniff`, and a CSP that
 * sandboxes the answer and lets it load nothing, so an image opened on its own cannot run anything.
 */
import type { Hono } from 'hono';
import { isAssetId, PlatformError } from '@platform/sdk';
import type { AppEnv } from '../../core/http/env.ts';
import { errorResponse } from '../../core/http/errors.ts';
import type { AssetService } from './service.ts';

export const ASSETS_BASE = '/assets';

const notFound = () => new PlatformError('PlatformApiNotFoundError', 'No asset with that id', { path: ['assetId'] });

/** @example registerAssetPublicRoutes(app, apps.assets) */
export function registerAssetPublicRoutes(app: Hono<AppEnv>, assets: AssetService): void {
  app.get(`${ASSETS_BASE}/:assetId`, async (c) => {
    const id = c.req.param('assetId');
    const found = isAssetId(id) ? await assets.read(id) : null;
    if (found === null) return errorResponse(c, notFound());
    if (c.req.header('if-none-match') === `"${id}"`) return c.body(null, 304, { etag: `"${id}"`, 'cache-control': 'public, max-age=31536000, immutable' });
    return c.body(found.bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': found.asset.contentType,
      'content-length': String(found.bytes.byteLength),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${id}"`,
      'content-disposition': 'inline',
      'cross-origin-resource-policy': 'same-site',
    });
  });
}
