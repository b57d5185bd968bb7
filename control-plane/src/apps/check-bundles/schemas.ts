/**
 * @module apps/check-bundles/schemas
 * `POST /v0/apps/check/bundles`: the query (an uploaded icon, as the upload takes it) and the
 * answer, the bundle's sha256 and the manifest its code computes as the service would accept it.
 */
import { z } from 'zod';
import { ASSET_ID_PATTERN } from '@platform/sdk';

export const CheckBundleQuerySchema = z.strictObject({
  icon: z.string().regex(ASSET_ID_PATTERN).optional().describe('An uploaded asset id, taken as the upload would take it'),
});

export const CheckedBundleSchema = z.object({
  sha256: z.string().describe('The bundle\'s sha256 (nothing is stored)'),
  manifest: z.record(z.string(), z.unknown()).describe('The manifest the code computes, defaults applied'),
}).meta({ id: 'CheckedBundle' });
