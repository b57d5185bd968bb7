/**
 * @module apps/assets/v0-routes
 * `POST /v0/assets` (ours): upload an image for tooling, answered with its asset id.
 */
import { LIMITS } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import { AssetResponseSchema } from './schemas.ts';
import { UPLOADS_PER_MINUTE, type AssetUploads } from './upload.ts';

export function registerAssetV0Routes(api: V0Api, uploads: AssetUploads): void {
  api.route({
    operationId: 'uploadAsset', method: 'post', path: '/assets', tag: 'tooling', auth: 'tooling',
    summary: 'Upload an image (an app icon) and get its asset id for the manifest\'s `icon`',
    description: 'The body is the image itself (any `content-type`: the type is read from the bytes). JPEG, PNG, WebP or GIF, '
      + `at most ${LIMITS.blockData.imageBytes / (1024 * 1024)} MB and ${LIMITS.blockData.imagePixelsPerSide.toLocaleString('en-US')} pixels per side. `
      + 'Stored by content: the same bytes answer the same id. Served to members at `{base_url}/assets/{id}`. '
      + `At most ${UPLOADS_PER_MINUTE} uploads a minute per caller.`,
    status: 201, response: AssetResponseSchema,
    errors: [
      { status: 400, description: 'PlatformApiInvalidRequestError: empty, not JPEG, PNG, WebP or GIF (`image_type`), over 8,192 pixels per side (`image_pixels`), or an unreadable header (`image_unreadable`)' },
      { status: 413, description: 'PlatformApiPayloadTooLargeError: over 5 MB' },
      { status: 429, description: 'PlatformApiRateLimitExceededError: over the uploads a minute (see `retry-after`)' },
    ],
  }, async ({ auth, c }) => ({ asset: await uploads.upload(auth, c) }));
}
