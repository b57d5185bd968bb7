/**
 * @module apps/publish/schemas
 * The version record every tooling endpoint answers: the contract's record (`appId`, `version`,
 * `target`, `manifestSha256`, `created`, `createdAt`, `added`) plus the manifest itself and, for an
 * uploaded version, its bundle. Upload query: `?target=preview|production`.
 */
import { z } from 'zod';
import { AppVersionRecordSchema, MANIFEST_TARGETS } from '@platform/sandbox-lib';

export const VersionRecordSchema = AppVersionRecordSchema.extend({
  manifest: z.record(z.string(), z.unknown()).describe('The manifest as accepted (defaults applied)'),
  bundle: z.object({ sha256: z.string(), bytes: z.int() }).optional().describe('Hosted versions: the uploaded bundle'),
}).meta({ id: 'AppVersion' });
export type VersionRecord = z.input<typeof VersionRecordSchema>;

export const UploadQuerySchema = z.strictObject({ target: z.enum(MANIFEST_TARGETS) });
