/**
 * @module apps/publish/service
 * Versions of an app: syncing a manifest, uploading a hosted bundle, reading the manifest. Every
 * accepted version passes `validateManifest` with what the service knows and compiles its JSON
 * Schemas; an identical sync or upload (same target, same canonical manifest, same bundle) answers
 * the latest version instead of recording a new one. A new version rolls out to installs in the
 * transaction that records it: to all that may take it, or, with `rollout`, to a share of them
 * (apps/rollouts); no production version is recorded while a rollout runs.
 */
import type { AssetService } from '../assets/service.ts';
import { missingAsset, withUploadedIcon } from './manifest-assets.ts';
import type { Context } from 'hono';
import { PlatformError, accessWidening, manifestErrorToPlatformError, validateManifest, type AccessWidening } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { iso } from '../../core/http/common.ts';
import { lockApp, setAppIcon, type AppRow } from '../apps/store.ts';
import type { BundlesService } from '../bundles/service.ts';
import { readUpload } from '../bundles/upload.ts';
import { rollOutVersion } from '../installs/rollout.ts';
import { beginRollout, refuseDuringRollout } from '../rollouts/begin.ts';
import { deployableApp, manageableApp, type ToolingCaller } from '../guards/access.ts';
import { manifestSha256 } from '../versions/canonical.ts';
import { manifestContextFor, type ServiceDomains } from './context.ts';
import type { ManifestReader } from './manifest-reader.ts';
import type { VersionRecord } from './schemas.ts';
import * as store from '../versions/store.ts';
import { SchemaCompileError, compileVersionValidators, schemaCompileToPlatformError, type SchemaValidatorCache } from '../versions/validators.ts';

/** A hosted version's code: the bundle, and the source map uploaded with it. */
export interface VersionBundle {
  sha256: string;
  bytes: number;
  sourceMap?: { sha256: string; bytes: number } | null;
}

export interface AcceptedVersion {
  row: store.VersionRow;
  /** False when an identical version already was the latest and is answered instead. */
  created: boolean;
}

export interface PublishServiceDeps {
  db: Db;
  clock: Clock;
  domains: ServiceDomains;
  bundles: BundlesService;
  /** Where the source maps uploaded with bundles go (the bundle store's `source_maps` table). */
  sourceMaps: BundlesService;
  reader: ManifestReader;
  validators: SchemaValidatorCache;
  /** The icons a manifest names must be stored assets. */
  assets: Pick<AssetService, 'existing'>;
  /** Told of an upload refused because its bundle does not load (the error groups record it); never fails the upload's answer. */
  loadFailed?: (appId: string, target: store.Target, err: unknown) => Promise<void>;
}

export type PublishService = ReturnType<typeof createPublishService>;

export function createPublishService(deps: PublishServiceDeps) {
  const { db } = deps;

  /** What the version adds over the production version before it (what installs would be asked to approve). */
  const addedOver = async (row: store.VersionRow): Promise<AccessWidening[]> => {
    const before = await store.productionBefore(db, row.app_id, row.version);
    return before === undefined ? [] : accessWidening(before.manifest, row.manifest);
  };

  const record = async ({ row, created }: AcceptedVersion): Promise<VersionRecord> => ({
    appId: row.app_id,
    version: row.version,
    target: row.target,
    manifest: row.manifest as unknown as Record<string, unknown>,
    manifestSha256: row.manifest_hash,
    ...(row.bundle_sha256 === null ? {} : { bundle: store.bundleOf(row)! }),
    created,
    createdAt: iso(row.created_at),
    added: (await addedOver(row)).map((a) => ({ kind: a.kind, detail: a.detail })),
    rollbackOf: row.rollback_of ?? null,
  });

  /**
   * Validates `manifest` for the app and target and records it as a version, unless it is
   * identical to the latest version. `bundle` is the uploaded code of a hosted version (with its
   * source map, when it came with one); `rollbackOf` the earlier version a rollback copies.
   */
  async function accept(app: AppRow, target: store.Target, manifest: unknown, bundle: VersionBundle | null,
    options: { rollbackOf?: number; rollout?: number | undefined } = {}): Promise<AcceptedVersion> {
    if (options.rollout !== undefined && target !== 'production') {
      throw new PlatformError('PlatformApiInvalidRequestError', 'A gradual rollout is of a production version: previews move the development installs at once', { path: ['rollout'] });
    }
    const result = validateManifest(manifest, await manifestContextFor(db, deps.domains, app, target));
    if (!result.valid) throw manifestErrorToPlatformError(result.error);
    const missing = await missingAsset(deps.assets, result.manifest);
    if (missing !== null) throw missing;
    let validators;
    try {
      validators = compileVersionValidators(result.manifest);
    } catch (err) {
      if (err instanceof SchemaCompileError) throw schemaCompileToPlatformError(err);
      throw err;
    }
    const hash = manifestSha256(result.manifest);
    const accepted = await db.transaction(async (tx): Promise<AcceptedVersion> => {
      await lockApp(tx, app.id);
      const latest = await store.latestVersion(tx, app.id);
      if (latest !== undefined && latest.target === target && latest.manifest_hash === hash &&
          (bundle === null || (latest.bundle_sha256 === bundle.sha256 && (latest.source_map_sha256 ?? null) === (bundle.sourceMap?.sha256 ?? null)))) {
        return { row: latest, created: false };
      }
      if (target === 'production') await refuseDuringRollout(tx, app.id);
      const at = new Date(deps.clock.now());
      const row: store.VersionRow = {
        app_id: app.id, version: await store.nextVersionNumber(tx, app.id), target, manifest: result.manifest, manifest_hash: hash,
        bundle_sha256: bundle?.sha256 ?? null, bundle_bytes: bundle?.bytes ?? null, created_at: at, rollback_of: options.rollbackOf ?? null,
        source_map_sha256: bundle?.sourceMap?.sha256 ?? null, source_map_bytes: bundle?.sourceMap?.bytes ?? null,
      };
      const hadProduction = options.rollout !== undefined && (await store.latestVersion(tx, app.id, 'production')) !== undefined;
      await store.insertVersion(tx, row);
      // A gradual rollout moves its share; the rest stay on their version until it is promoted.
      if (options.rollout !== undefined) await beginRollout(tx, row, options.rollout, hadProduction, at);
      else await rollOutVersion(tx, row, at);
      // The icon members see: production's (a development app has previews only).
      if (target === 'production' || app.dev_base_slug !== null) await setAppIcon(tx, app.id, result.manifest.icon ?? null);
      return { row, created: true };
    });
    if (accepted.created) deps.validators.remember(app.id, accepted.row.version, validators);
    return accepted;
  }

  return {
    accept,
    record,

    /** `PUT /v0/apps/{app_id}/manifest`. Hosted apps publish production by upload, not this way. */
    async syncManifest(caller: ToolingCaller, appId: string, input: { manifest: unknown; target: store.Target }, rollout?: number): Promise<VersionRecord> {
      const app = await deployableApp(db, caller, appId, input.target);
      if (app.hosting === 'platform' && input.target === 'production') {
        throw new PlatformError('PlatformAppDeployTargetForbiddenError',
          'Hosted apps publish production by uploading their bundle (POST /v0/apps/{app_id}/versions?target=production)', { path: ['target'] });
      }
      return record(await accept(app, input.target, input.manifest, null, { rollout }));
    },

    /**
     * `POST /v0/apps/{app_id}/versions?target=`: the body is the bundle (with its source map, as
     * multipart); the manifest is the one its code computes. `icon`: an uploaded asset id the
     * version's manifest takes when its code names none (or names a file).
     */
    async upload(caller: ToolingCaller, appId: string, target: store.Target, c: Context, icon?: string, rollout?: number): Promise<VersionRecord> {
      const app = await deployableApp(db, caller, appId, target);
      if (app.hosting !== 'platform') {
        throw new PlatformError('PlatformAppManifestInvalidError', 'Only hosted apps (hosting "platform") upload bundles',
          { path: ['hosting'], fields: { reason: 'hosting-mismatch' } });
      }
      const { bundle, sourceMap } = await readUpload(c);
      const latest = await store.latestVersion(db, app.id);
      // The same code (and map) to the same target again: its manifest is the same too, so nothing runs.
      if (latest !== undefined && latest.target === target && latest.bundle_sha256 === bundle.sha256
        && (latest.source_map_sha256 ?? null) === (sourceMap?.sha256 ?? null)
        && (icon === undefined || (latest.manifest as { icon?: unknown }).icon === icon)) {
        return record({ row: latest, created: false });
      }
      await deps.bundles.put(bundle.sha256, bundle.bytes);
      if (sourceMap !== null) await deps.sourceMaps.put(sourceMap.sha256, sourceMap.bytes);
      // With the map, a bundle that fails to load names the line of the author's file that threw.
      const read = await deps.reader.read({ appId: app.id, sha256: bundle.sha256, bytes: bundle.bytes, ...(sourceMap === null ? {} : { sourceMap: sourceMap.bytes }) })
        .catch(async (err: unknown) => {
          await deps.loadFailed?.(app.id, target, err).catch(() => undefined);
          throw err;
        });
      return record(await accept(app, target, withUploadedIcon(read, icon), {
        sha256: bundle.sha256, bytes: bundle.bytes.byteLength, sourceMap: sourceMap === null ? null : { sha256: sourceMap.sha256, bytes: sourceMap.bytes.byteLength },
      }, { rollout }));
    },

    /** Without `target`: the published manifest, else the latest preview. */
    async getManifest(caller: ToolingCaller, appId: string, target: store.Target | undefined) {
      const app = await manageableApp(db, caller, appId);
      const row = target !== undefined ? await store.latestVersion(db, app.id, target)
        : (await store.latestVersion(db, app.id, 'production')) ?? (await store.latestVersion(db, app.id, 'preview'));
      if (row === undefined) throw new PlatformError('PlatformApiNotFoundError', 'The app has no version of that target yet', { path: ['target'] });
      return { appId: app.id, version: row.version, target: row.target, manifest: row.manifest as unknown as Record<string, unknown> };
    },
  };
}
