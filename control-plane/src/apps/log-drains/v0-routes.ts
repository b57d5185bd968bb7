/**
 * @module apps/log-drains/v0-routes
 * `/v0/apps/{app_id}/log-drains`: list and add; `…/{drain_id}`: remove; `…/rotate-secret`,
 * `…/enable`, `…/test`. Credentials: tooling that may manage the app and read all of its lines.
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { LogDrainCreateSchema, LogDrainListSchema, LogDrainSchema, LogDrainTestSchema, LogDrainWithSecretSchema } from './schemas.ts';
import type { LogDrainsService } from './service.ts';

const errors = [
  { status: 403, description: 'PlatformAppDeployTargetForbiddenError: a preview-only credential (drains receive production\'s lines)' },
  { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it; PlatformApiNotFoundError: no such drain' },
];

const ABOUT = 'A drain receives every log line of the app (what `GET …/logs` answers, without CPU profiles), oldest first, as POSTs of '
  + '`LogDrainBatch` JSON: at most 500 lines and 1 MiB a batch, sent about a second after the first new line. Each batch is signed as '
  + 'deliveries are (Standard Webhooks: `webhook-id`, stable across retries of one batch; `webhook-timestamp`; `webhook-signature`, '
  + 'two signatures for 24 hours after a rotation). Any 2xx within 10 s acknowledges; anything else is retried after 1 s, 2 s, 4 s … '
  + 'up to 5 minutes, and a drain failing without a success for 24 hours is disabled and the app\'s owner mailed. Platform credentials '
  + 'in lines are masked, as secret env values already are.';

export function registerLogDrainV0Routes(api: V0Api, drains: LogDrainsService): void {
  api.route({
    operationId: 'listLogDrains', method: 'get', path: '/apps/{app_id}/log-drains', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s log drains (ours)', description: ABOUT, status: 200, response: LogDrainListSchema, errors,
  }, async ({ auth, params }) => drains.list(auth, params.app_id));

  api.route({
    operationId: 'addLogDrain', method: 'post', path: '/apps/{app_id}/log-drains', tag: 'tooling', auth: 'tooling',
    summary: 'Add a log drain (at most 3 an app); its signing secret is answered only here (ours)', description: ABOUT,
    body: LogDrainCreateSchema, status: 201, response: LogDrainWithSecretSchema,
    errors: [...errors, { status: 409, description: 'PlatformApiConflictError: the app already has 3 drains' },
      { status: 422, description: 'PlatformAppManifestInvalidError: the URL\'s host is an address batches are never sent to' }],
  }, async ({ auth, params, body }) => drains.add(auth, params.app_id, body));

  api.route({
    operationId: 'removeLogDrain', method: 'delete', path: '/apps/{app_id}/log-drains/{drain_id}', tag: 'tooling', auth: 'tooling',
    summary: 'Remove a log drain (ours)', status: 204, errors,
  }, async ({ auth, params }) => drains.remove(auth, params.app_id, params.drain_id));

  api.route({
    operationId: 'rotateLogDrainSecret', method: 'post', path: '/apps/{app_id}/log-drains/{drain_id}/rotate-secret', tag: 'tooling', auth: 'tooling',
    summary: 'A new signing secret, answered only here; the previous one also signs for 24 hours (ours)', status: 200, response: LogDrainWithSecretSchema, errors,
  }, async ({ auth, params }) => drains.rotate(auth, params.app_id, params.drain_id));

  api.route({
    operationId: 'enableLogDrain', method: 'post', path: '/apps/{app_id}/log-drains/{drain_id}/enable', tag: 'tooling', auth: 'tooling',
    summary: 'Enable a disabled drain: it resumes after the last line it delivered (ours)', status: 200, response: LogDrainSchema, errors,
  }, async ({ auth, params }) => drains.enable(auth, params.app_id, params.drain_id));

  api.route({
    operationId: 'testLogDrain', method: 'post', path: '/apps/{app_id}/log-drains/{drain_id}/test', tag: 'tooling', auth: 'tooling',
    summary: 'Send the drain one signed batch with a made-up line now and answer how it went (ours)', status: 200, response: LogDrainTestSchema, errors,
  }, async ({ auth, params }) => drains.test(auth, params.app_id, params.drain_id));
}
