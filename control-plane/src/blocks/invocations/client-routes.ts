/**
 * @module blocks/invocations/client-routes
 * The member's side of commands and message actions in the client API: run one, and read a run
 * (its private answer, notice, failure card, or the pending indicator of a deferral). A failed
 * delivery is not an HTTP error: the run answers `status: failed` with its `error` (the failure card).
 * The member who ran it shares or dismisses a private answer. Any member lists what they can run.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import type { InvocationsService } from './service.ts';
import { AvailableCommandsResponse, InvocationResponse, RunCommandRequest, RunMessageActionRequest, ShareResponse } from './schemas.ts';

const errors = [
  { status: 403, description: 'PlatformApiForbiddenError: the app cannot reach the circle, or the circle is read-only' },
  { status: 404, description: 'PlatformApiNotFoundError: no such install, circle, conversation, member or message you see' },
  { status: 409, description: 'PlatformApiConflictError: a chat surface in a circle that does not use chat' },
];

export function registerInvocationClientRoutes(api: ClientApi, invocations: InvocationsService): void {
  api.route({
    operationId: 'listCommands', method: 'get', path: '/commands', tag: 'invocations', auth: 'member', status: 200,
    summary: 'The slash commands and message actions you can run: those of the apps installed in your workspace, and of your own development apps',
    description: 'One item per active install (suspended and uninstalled apps are left out, and so are apps that declare neither), '
      + 'from the manifest of the version the install runs. Any member may read it; running one still checks the surface or message.',
    response: AvailableCommandsResponse,
  }, async ({ auth }) => invocations.available(auth));

  api.route({
    operationId: 'runCommand', method: 'post', path: '/commands/run', tag: 'invocations', auth: 'member', status: 200,
    summary: 'Run an app\'s command on a surface (a circle\'s conversation or chat, or a direct chat)',
    description: 'Options are checked against the command in the version the install runs; only filled-in options reach the app.',
    body: RunCommandRequest, maxBytes: 64 * 1024, response: InvocationResponse, errors,
  }, async ({ auth, body }) => invocations.runCommand(auth, body));

  api.route({
    operationId: 'runMessageAction', method: 'post', path: '/message-actions/run', tag: 'invocations', auth: 'member', status: 200,
    summary: 'Run an app\'s message action on a message you see',
    body: RunMessageActionRequest, response: InvocationResponse, errors,
  }, async ({ auth, body }) => invocations.runMessageAction(auth, body));

  api.route({
    operationId: 'getInvocation', method: 'get', path: '/invocations/{invocationId}', tag: 'invocations', auth: 'member', status: 200,
    summary: 'A run: yours, or someone else\'s public deferral while it is pending', response: InvocationResponse,
    errors: [{ status: 404, description: 'PlatformApiNotFoundError' }],
  }, async ({ auth, params }) => invocations.view(auth, params.invocationId));

  const yours = { status: 404, description: 'PlatformApiNotFoundError: no run of yours has that id' };

  api.route({
    operationId: 'shareInvocationAnswer', method: 'post', path: '/invocations/{invocationId}/share', tag: 'invocations', auth: 'member', status: 200,
    summary: 'Share your private answer: it is posted where the command ran (a message action: in its message\'s thread), as the app',
    description: 'Placed exactly as a public answer would have been (content as the app\'s message, a block through `block.insert`); once, within '
      + 'its 24 hours. `outcome: failed` with `error` when nothing could be posted (the answer stays private; a block cannot go into a direct chat).',
    response: ShareResponse,
    errors: [
      yours,
      { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only, or the app can no longer reach it' },
      { status: 404, description: 'PlatformApiNotFoundError: the conversation, circle or message it answers is gone or no longer visible to you' },
      { status: 409, description: 'PlatformApiConflictError: not a private answer, shared or dismissed already, past its 24 hours, nothing to post, or the app is uninstalled' },
    ],
  }, async ({ auth, params }) => invocations.share(auth, params.invocationId));

  api.route({
    operationId: 'dismissInvocationAnswer', method: 'post', path: '/invocations/{invocationId}/dismiss', tag: 'invocations', auth: 'member', status: 200,
    summary: 'Dismiss your private answer: it is gone for good (again: nothing changes)', response: InvocationResponse,
    errors: [yours, { status: 409, description: 'PlatformApiConflictError: not a private answer, or shared already' }],
  }, async ({ auth, params }) => invocations.dismiss(auth, params.invocationId));
}
