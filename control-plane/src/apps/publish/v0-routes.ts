/**
 * @module apps/publish/v0-routes
 * Tooling endpoints of versions: `PUT` and `GET /v0/apps/{app_id}/manifest` (spec), the hosted
 * upload `POST /v0/apps/{app_id}/versions?target=` (ours: the body is the bundle, alone or with its source map), the list
 * `GET /v0/apps/{app_id}/versions`, one version with its manifest `GET /v0/apps/{app_id}/versions/{version}`
 * and `POST /v0/apps/{app_id}/rollback` (ours).
 */
import { LIMITS, ManifestGetQuerySchema, ManifestGetResponseSchema, ManifestSyncRequestSchema } from '@platform/sdk';
import { parseWith } from '../../core/http/read-json.ts';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { VersionHistoryService } from './history.ts';
import { MANIFEST_BODY } from './manifest-body.ts';
import {
  RollbackRequestSchema, SyncQuerySchema, UploadQuerySchema, VersionDetailSchema, VersionListQuerySchema, VersionListSchema, VersionParamsSchema, VersionRecordSchema,
} from './schemas.ts';
import type { PublishService } from './service.ts';

const notFound = { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not deploy it' };
const targetForbidden = {
  status: 403,
  description: 'PlatformAppDeployTargetForbiddenError: a preview-only deploy token or an agent builder token asked for production, or a hosted app tried to publish production without its bundle',
};
const rolloutErrors = {
  invalid: { status: 400, description: 'PlatformApiInvalidRequestError: `rollout` with a preview target' },
  conflict: { status: 409, description: 'PlatformApiConflictError: a rollout is running (promote or abort it first), or `rollout` on the app\'s first production version' },
};
const invalid = { status: 422, description: 'PlatformAppManifestInvalidError or PlatformAppPatternInvalidError (`reason`)' };

export function registerPublishV0Routes(api: V0Api, versions: PublishService, history: VersionHistoryService): void {
  api.route({
    operationId: 'syncManifest', method: 'put', path: '/apps/{app_id}/manifest', tag: 'tooling', auth: 'tooling',
    summary: 'Record a version from a manifest (self-hosted apps; previews of hosted apps)',
    description: 'A manifest identical to the latest version\'s (same target) answers that version with `created: false`. '
      + '`?rollout=` (ours) moves only that share of the installs (docs/decisions/rollouts.md).',
    body: ManifestSyncRequestSchema, ...MANIFEST_BODY, query: SyncQuerySchema, status: 200, response: VersionRecordSchema,
    errors: [notFound, targetForbidden, invalid, rolloutErrors.invalid, rolloutErrors.conflict],
  }, async ({ auth, params, body, query }) => versions.syncManifest(auth, params.app_id, body, query.rollout));

  api.route({
    operationId: 'getManifest', method: 'get', path: '/apps/{app_id}/manifest', tag: 'tooling', auth: 'tooling',
    summary: 'The published manifest (else the latest preview), or the latest of `target`', query: ManifestGetQuerySchema,
    status: 200, response: ManifestGetResponseSchema, errors: [notFound],
  }, async ({ auth, params, query }) => versions.getManifest(auth, params.app_id, query.target));

  api.route({
    operationId: 'uploadVersion', method: 'post', path: '/apps/{app_id}/versions', tag: 'tooling', auth: 'tooling',
    summary: 'Upload a hosted app\'s bundle (at most 10 MB), with its source map (at most 20 MB), as a version of `target`',
    description: 'The body is the esbuild bundle, an ES module whose default export is the app (`content-type: application/javascript`), '
      + 'or `multipart/form-data` with that bundle as the part `bundle` and its source map as the part `sourceMap` (what `platform deploy` sends). '
      + 'Both are stored by sha256; the map then maps every stack the author sees (log lines, load errors, CPU profiles) to the app\'s files. '
      + 'The bundle is evaluated on a runtime node in a fresh isolate under a CPU budget to read the manifest its code computes, and that manifest '
      + 'is validated like a synced one. The same bundle (and map) to the same target again answers the latest version (`created: false`).',
    consumes: {
      'application/javascript': { type: 'string', description: 'The bundle' },
      'multipart/form-data': {
        type: 'object', required: ['bundle'],
        properties: {
          bundle: { type: 'string', contentMediaType: 'application/javascript', description: `The bundle, at most ${LIMITS.manifest.hostedBundleBytes} bytes` },
          sourceMap: { type: 'string', contentMediaType: 'application/json', description: `Its source map (version 3, \`sourcesContent\` optional), at most ${LIMITS.hosted.sourceMapBytes} bytes` },
        },
      },
    },
    query: UploadQuerySchema, status: 200, response: VersionRecordSchema,
    errors: [
      notFound, targetForbidden, invalid,
      { status: 400, description: 'PlatformApiInvalidRequestError: neither application/javascript nor multipart/form-data with a bundle part, empty, or a source map that is not one (`issues[].path` starts with sourceMap)' },
      { status: 413, description: `PlatformApiPayloadTooLargeError: the bundle is over 10 MB, or the source map over ${LIMITS.hosted.sourceMapBytes / 1024 / 1024} MB (\`path\`: bundle or sourceMap, \`limit\`)` },
      { status: 422, description: 'PlatformAppBundleInvalidError: the code did not load or computed no manifest (`error`: what it threw, with its frames, mapped when a source map came with it)' },
      { status: 503, description: 'PlatformRuntimeCpuLimitError / PlatformRuntimeMemoryLimitError while evaluating, or no runtime node answered' },
      rolloutErrors.conflict,
    ],
  }, async ({ auth, params, query, c }) => versions.upload(auth, params.app_id, query.target, c, query.icon, query.rollout));

  api.route({
    operationId: 'listVersions', method: 'get', path: '/apps/{app_id}/versions', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s versions, newest first, each with what it adds in access over the production version before it',
    query: VersionListQuerySchema, status: 200, response: VersionListSchema, errors: [notFound],
  }, async ({ auth, params, query }) => history.list(auth, params.app_id, query));

  api.route({
    operationId: 'getVersion', method: 'get', path: '/apps/{app_id}/versions/{version}', tag: 'tooling', auth: 'tooling',
    summary: 'One version as the list shows it, with the manifest it was accepted with (what a diff of two versions reads)',
    status: 200, response: VersionDetailSchema,
    errors: [notFound, { status: 404, description: 'PlatformApiNotFoundError: the app has no such version' }],
  }, async ({ auth, params }) => history.one(auth, params.app_id, parseWith(VersionParamsSchema, params).version));

  api.route({
    operationId: 'rollbackVersion', method: 'post', path: '/apps/{app_id}/rollback', tag: 'tooling', auth: 'tooling',
    summary: 'Serve an earlier production version again (default: the one before the live one)',
    description: 'Records a new production version that copies the earlier version\'s manifest and bundle (`rollbackOf`), validated '
      + 'and rolled out like any publish: installs move when it adds no access over the version they run; otherwise they keep their '
      + 'version until a workspace admin approves, and `app.reconsentRequired` is sent. Identical to the latest version: that version, `created: false`.',
    body: RollbackRequestSchema, status: 200, response: VersionRecordSchema,
    errors: [
      notFound,
      { status: 403, description: 'PlatformAppDeployTargetForbiddenError: a preview-only deploy token or an agent builder token' },
      { status: 404, description: 'PlatformApiNotFoundError: the app has no such version' },
      { status: 409, description: 'PlatformApiConflictError: no production version yet, none before the live one, the version is a preview, it is live already, or a rollout is running' },
      { status: 422, description: 'PlatformAppManifestInvalidError: the earlier manifest is no longer valid (`reason`, such as env-missing)' },
    ],
  }, async ({ auth, params, body }) => history.rollback(auth, params.app_id, body));
}
