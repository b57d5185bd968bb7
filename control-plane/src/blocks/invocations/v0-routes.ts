/**
 * @module blocks/invocations/v0-routes
 * `POST /v0/invocations/respond`: the app's one answer to a deferred command or message action,
 * with an install token; the body names the run by its interaction token.
 */
import { API_ROUTES } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { InvocationsService } from './service.ts';

const R = API_ROUTES.invocationRespond;

export function registerInvocationV0Routes(api: V0Api, invocations: InvocationsService): void {
  api.route({
    operationId: 'respondToInvocation', method: 'post', path: '/invocations/respond', tag: 'invocations', auth: 'install', status: 200,
    summary: 'Answer a deferred command or message action (once, within 15 minutes)',
    description: 'No scope. `interactionToken` is the run\'s (from `command.run` or `messageAction.run`); `answer` is an InvocationAnswer, placed '
      + 'as a direct answer would have been. `ok` is false when the answer reports the run as failed (a warning or danger notice alone) or could not be placed.',
    body: R.body, maxBytes: 1024 * 1024, response: R.response,
    errors: [
      { status: 401, description: 'PlatformAppInteractionExpiredError: the run\'s 15 minutes are over' },
      { status: 404, description: 'PlatformApiNotFoundError: no deferred run of this install has that token' },
      { status: 409, description: 'PlatformApiConflictError: the run was answered already' },
    ],
  }, async ({ auth, body }) => invocations.respond(auth, body));
}
