/**
 * @module apps/dev-apps/v0-routes
 * `PUT /v0/apps/dev` (spec: sync the development app).
 */
import { DevSyncQuerySchema, DevSyncRequestSchema, DevSyncResponseSchema } from '@platform/sdk';
import { MANIFEST_BODY } from '../publish/manifest-body.ts';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { DevAppsService } from './service.ts';

export function registerDevAppV0Routes(api: V0Api, devApps: DevAppsService): void {
  api.route({
    operationId: 'syncDevApp', method: 'put', path: '/apps/dev', tag: 'tooling', auth: 'tooling',
    summary: 'Sync your development app: created on first use with a random slug suffix, the manifest recorded as a preview, the dev install kept on it',
    description: 'Member API key or agent builder token; deploy tokens are refused. `?reveal=signing-secret` adds the signing secret '
      + '(never for agent builder tokens). `playgroundUrl` opens the app in the console.',
    query: DevSyncQuerySchema, body: DevSyncRequestSchema, ...MANIFEST_BODY,
    status: 200, response: DevSyncResponseSchema,
    errors: [
      { status: 403, description: 'PlatformAppsUnavailableError (apps are off in the workspace) or PlatformAppDeployTargetForbiddenError (a deploy token)' },
      { status: 409, description: 'PlatformAppDevSlugUnavailableError: no free slug found' },
      { status: 422, description: 'PlatformAppManifestInvalidError or PlatformAppPatternInvalidError (`reason`)' },
    ],
  }, async ({ auth, query, body }) => devApps.sync(auth, { manifest: body.manifest, reveal: query.reveal }));
}
