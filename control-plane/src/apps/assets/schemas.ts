/**
 * @module apps/assets/schemas
 * An asset as `/v0` answers it (ours: the spec names the manifest's `icon` "an uploaded asset id"
 * and leaves the upload to us).
 */
import { ASSET_ID_PATTERN, LIMITS } from '@platform/sdk';
import { z } from 'zod';

export const AssetSchema = z.object({
  id: z.string().regex(ASSET_ID_PATTERN).describe('`ast_` and the base32 of the bytes\' sha256: the same bytes are the same asset'),
  contentType: z.enum(LIMITS.blockData.imageTypes).describe('Read from the bytes, not from the upload\'s header'),
  bytes: z.int().min(1).max(LIMITS.blockData.imageBytes),
  width: z.int().min(1).max(LIMITS.blockData.imagePixelsPerSide),
  height: z.int().min(1).max(LIMITS.blockData.imagePixelsPerSide),
  url: z.string().describe('Where members load it: `{base_url}/assets/{id}`'),
}).meta({ id: 'Asset' });

export const AssetResponseSchema = z.object({ asset: AssetSchema });
