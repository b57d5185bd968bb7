/**
 * @module workspace/calls/client-routes
 * `/circles/{circleId}/calls` and `/calls/{callId}`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { CallResponse, RecapBody, StartCallBody } from './schemas.ts';
import type { CallsService } from './service.ts';

const readOnly = { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only' };

export function registerCallClientRoutes(api: ClientApi, calls: CallsService): void {
  api.route({
    operationId: 'startCall', method: 'post', path: '/circles/{circleId}/calls', tag: 'calls', auth: 'member',
    summary: 'Record a call in a circle with its participants', body: StartCallBody, status: 201, response: CallResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ call: await calls.start(auth, params.circleId, body) }));

  api.route({
    operationId: 'getCall', method: 'get', path: '/calls/{callId}', tag: 'calls', auth: 'member',
    summary: 'One call', status: 200, response: CallResponse,
  }, async ({ auth, params }) => ({ call: await calls.get(auth, params.callId) }));

  api.route({
    operationId: 'setCallRecap', method: 'put', path: '/calls/{callId}/recap', tag: 'calls', auth: 'member',
    summary: 'Write the recap of a call (apps subscribed to call.recapReady hear of it)', body: RecapBody, maxBytes: CLIENT_LIMITS.messageBodyBytes, status: 200, response: CallResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ call: await calls.recap(auth, params.callId, body.recap) }));
}
