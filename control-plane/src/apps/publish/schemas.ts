/**
 * @module apps/publish/schemas
 * The version record every tooling endpoint answers: the contract's record (`appId`, `version`,
 * `target`, `manifestSha256`, `created`, `createdAt`, `added`) plus the manifest itself and, for an
 * uploaded version, its bundle. Upload query: `?target=preview|production`. One version as listed,
 * with its manifest (`GET /v0/apps/{app_id}/versions/{version}`).
 */
import { z } from 'zod';
import { ASSET_ID_PATTERN, AppVersionRecordSchema, COUNTER_MAX, MANIFEST_TARGETS } from '@platform/sdk';

/** A hosted version's uploaded bundle, and the source map uploaded with it. */
const BundleSchema = z.object({
  sha256: z.string(),
  bytes: z.int(),
  sourceMap: z.object({ sha256: z.string(), bytes: z.int() }).nullable().optional()
    .describe('The source map uploaded with the bundle (stacks in logs, load errors and CPU profiles are mapped with it), or null'),
});

export const VersionRecordSchema = AppVersionRecordSchema.extend({
  manifest: z.record(z.string(), z.unknown()).describe('The manifest as accepted (defaults applied)'),
  bundle: BundleSchema.optional().describe('Hosted versions: the uploaded bundle'),
  rollbackOf: z.int().nullable().optional().describe('The earlier version this one copies (`platform rollback`), else null'),
}).meta({ id: 'AppVersion' });
export type VersionRecord = z.input<typeof VersionRecordSchema>;

/** `?rollout=`: start a gradual rollout of a production version at this share (ours, docs/decisions/rollouts.md). */
const RolloutQuery = z.coerce.number().int().min(1).max(99).optional()
  .describe('Production only (ours): move this share (1-99 %) of the installs that may take the version, chosen by a stable hash, instead of all; `platform rollout` advances, promotes or aborts it, and the platform aborts it by itself when the version is worse');

export const SyncQuerySchema = z.strictObject({ rollout: RolloutQuery });

export const UploadQuerySchema = z.strictObject({
  target: z.enum(MANIFEST_TARGETS),
  rollout: RolloutQuery,
  icon: z.string().regex(ASSET_ID_PATTERN).optional()
    .describe('An uploaded asset id: the version\'s icon when the code names none or names a file (`platform deploy` uploads the icon beside the app)'),
});

/** `GET /v0/apps/{app_id}/versions`: newest first, `before` a version number (the next page). */
export const VersionListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.coerce.number().int().min(2).max(COUNTER_MAX).optional().describe('Versions older than this one (the previous page\'s `nextBefore`)'),
});

export const VersionSummarySchema = z.object({
  version: z.int(),
  target: z.enum(MANIFEST_TARGETS),
  manifestSha256: z.string(),
  createdAt: z.string(),
  bundle: BundleSchema.nullable().describe('Hosted versions: the uploaded bundle'),
  added: z.array(z.object({ kind: z.string(), detail: z.string() }))
    .describe('What the version adds in access over the production version before it (what installs are asked to approve)'),
  rollbackOf: z.int().nullable().describe('The earlier version this one copies (a rollback), else null'),
  live: z.boolean().describe('The production version the app serves now (the latest production version)'),
}).meta({ id: 'AppVersionSummary' });

export const VersionListSchema = z.object({
  appId: z.string(),
  items: z.array(VersionSummarySchema),
  nextBefore: z.int().nullable().describe('Pass as `before` for older versions; null when there are none'),
});
export type VersionList = z.input<typeof VersionListSchema>;

/** `GET /v0/apps/{app_id}/versions/{version}`: one version as listed, with its manifest (what `platform` and the console diff). */
export const VersionParamsSchema = z.object({ version: z.coerce.number().int().min(1).max(COUNTER_MAX) });

export const VersionDetailSchema = VersionSummarySchema.extend({
  appId: z.string(),
  manifest: z.record(z.string(), z.unknown()).describe('The manifest as accepted (defaults applied)'),
}).meta({ id: 'AppVersionDetail' });
export type VersionDetail = z.input<typeof VersionDetailSchema>;

/** `POST /v0/apps/{app_id}/rollback`: without `version`, the production version before the live one. */
export const RollbackRequestSchema = z.strictObject({
  version: z.int().min(1).max(COUNTER_MAX).optional().describe('The earlier production version to serve again'),
});
