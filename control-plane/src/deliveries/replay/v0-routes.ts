/**
 * @module deliveries/replay/v0-routes
 * `POST /v0/apps/{app_id}/deliveries/{delivery_id}/replay` (tooling; ours): `platform replay`.
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { ReplayRequestSchema, ReplayResponseSchema } from './schemas.ts';
import type { ReplayService } from './service.ts';

export function registerReplayV0Routes(api: V0Api, replays: ReplayService): void {
  api.route({
    operationId: 'replayDelivery', method: 'post', path: '/apps/{app_id}/deliveries/{delivery_id}/replay', tag: 'tooling', auth: 'tooling',
    summary: 'Run a recorded delivery again against a version of the app, read-only, and answer both answers',
    description: 'The recorded delivery (lifecycle, or interactive with its request kept) is sent again to the same install, with the envelope\'s '
      + '`app.version` set to `version` (hosted apps run that version\'s bundle; self-hosted ones get it at their endpoint, or through the relay for a '
      + 'dev install) and a fresh `webhook-id`. Its install token (and interaction token) is read-only: every `/v0` write made with it answers 403 '
      + '`PlatformReplayReadOnlyError`, so nothing in the workspace changes, and the answer is not applied. The replay is not recorded as a delivery.',
    body: ReplayRequestSchema, status: 200, response: ReplayResponseSchema,
    errors: [
      { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it; PlatformApiNotFoundError: no such delivery of the app, or no such version' },
      { status: 409, description: 'PlatformApiConflictError: the request was not kept (an interactive delivery recorded before requests were, or over 256 KB), the app has no preview version, the version has no uploaded bundle, or the install is no longer active' },
    ],
  }, async ({ auth, params, body }) => replays.replay(auth, params.app_id, params.delivery_id, body));
}
