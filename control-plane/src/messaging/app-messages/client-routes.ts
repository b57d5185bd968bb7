/**
 * @module messaging/app-messages/client-routes
 * The client API's side of app streams: `GET /client/v1/circles/{circleId}/streams` and
 * `POST /client/v1/streams/{streamId}/revoke` and `POST /client/v1/streams/{streamId}/unrevoke`
 * (owners and admins).
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { StreamList, StreamResponse } from './schemas.ts';
import type { StreamAdmin } from './stream-admin.ts';

const forbidden = { status: 403, description: 'PlatformApiForbiddenError: only workspace owners and admins' };

export function registerAppMessageClientRoutes(api: ClientApi, streams: StreamAdmin): void {
  api.route({
    operationId: 'listCircleStreams', method: 'get', path: '/circles/{circleId}/streams', tag: 'circles', auth: 'member',
    summary: 'App streams of a circle (each app\'s log of events posted with POST /v0/streams/events), oldest first',
    status: 200, response: StreamList,
  }, async ({ auth, params }) => streams.list(auth, params.circleId));

  api.route({
    operationId: 'revokeStream', method: 'post', path: '/streams/{streamId}/revoke', tag: 'circles', auth: 'member',
    summary: 'Revoke an app\'s stream: its later events answer 410; what it posted stays (owners and admins; a second call changes nothing)',
    status: 200, response: StreamResponse, errors: [forbidden],
  }, async ({ auth, params }) => streams.revoke(auth, params.streamId));

  api.route({
    operationId: 'unrevokeStream', method: 'post', path: '/streams/{streamId}/unrevoke', tag: 'circles', auth: 'member',
    summary: 'Un-revoke an app\'s stream: its later events are accepted again (owners and admins; a stream that is not revoked stays as it is)',
    description: 'Events refused while the stream was revoked stay refused: the app sends them again if it wants them posted.',
    status: 200, response: StreamResponse, errors: [forbidden],
  }, async ({ auth, params }) => streams.unrevoke(auth, params.streamId));
}
