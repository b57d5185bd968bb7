/**
 * @module apps/check-bundles/v0-routes
 * `POST /v0/apps/check/bundles` (ours): a hosted bundle, with its source map, checked as
 * `POST /v0/apps/{app_id}/versions` would check it, before any app exists. `platform deploy --create`
 * calls it before creating the app, so a bundle that fails to load leaves nothing behind.
 */
import { LIMITS } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import { CheckBundleQuerySchema, CheckedBundleSchema } from './schemas.ts';
import type { CheckBundlesService } from './service.ts';

export function registerCheckBundlesV0Routes(api: V0Api, checker: CheckBundlesService): void {
  api.route({
    operationId: 'checkBundle', method: 'post', path: '/apps/check/bundles', tag: 'tooling', auth: 'tooling',
    summary: 'Check a hosted app\'s bundle as an upload would, without an app and without storing it',
    description: 'The body is what `POST /v0/apps/{app_id}/versions` takes (the bundle, or multipart with its source map). The code is '
      + 'evaluated on a runtime node under the startup CPU budget and the manifest it computes is validated with what the service knows '
      + 'before an app exists (reserved names and domains; not the slug an app records nor its variables, which the upload checks). '
      + 'Answers the manifest, or the error the upload would answer.',
    consumes: {
      'application/javascript': { type: 'string', description: 'The bundle' },
      'multipart/form-data': {
        type: 'object', required: ['bundle'],
        properties: {
          bundle: { type: 'string', contentMediaType: 'application/javascript', description: `The bundle, at most ${LIMITS.manifest.hostedBundleBytes} bytes` },
          sourceMap: { type: 'string', contentMediaType: 'application/json', description: `Its source map, at most ${LIMITS.hosted.sourceMapBytes} bytes` },
        },
      },
    },
    query: CheckBundleQuerySchema, status: 200, response: CheckedBundleSchema,
    errors: [
      { status: 400, description: 'PlatformApiInvalidRequestError: not a bundle, or a source map that is not one' },
      { status: 413, description: 'PlatformApiPayloadTooLargeError: the bundle or the source map is over its limit' },
      { status: 422, description: 'PlatformAppBundleInvalidError (the code did not load or computed no manifest) or PlatformAppManifestInvalidError (`reason`)' },
      { status: 503, description: 'PlatformRuntimeCpuLimitError / PlatformRuntimeMemoryLimitError while evaluating, or no runtime node answered' },
    ],
  }, async ({ query, c }) => checker.check(c, query.icon));
}
