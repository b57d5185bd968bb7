/**
 * @module messaging/app-messages/v0-routes
 * `POST /v0/replies` and `POST /v0/streams/events`, with the paths and shapes of `API_ROUTES`
 * (docs/decisions/contract.md, docs/decisions/app-messages.md).
 */
import { API_ROUTES } from '@platform/sdk';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { AppMessagesService } from './service.ts';

const R = API_ROUTES;
// A message's document is at most 64 KB of compact JSON and markdown 40,000 characters (up to 4
// bytes each); the body may carry whitespace and the other fields. Members' messages get the same.
const maxBytes = CLIENT_LIMITS.messageBodyBytes;
const scope = { status: 403, description: 'PlatformAppScopeMissingError (`replies:write`), PlatformAppInstallRevokedError' };

export function registerAppMessageV0Routes(api: V0Api, messages: AppMessagesService): void {
  api.route({
    operationId: 'postReply', method: 'post', path: '/replies', tag: 'messages', auth: 'install', status: 201,
    summary: 'Post a message as the app into a conversation, a thread (replyTo) or a circle\'s chat',
    description: 'Scope `replies:write`. `content` is an editor document (`{ type: "doc", content }`, the rules of members\' messages). '
      + 'Exactly one of `conversationId`, `replyTo`, `circleId`, within reach; `circleId` only in circles that use chat. '
      + 'Causes `post.created` or `reply.created` (author `{ kind: "app" }`) for other subscribed installs within reach.',
    body: R.reply.body, maxBytes, response: R.reply.response,
    errors: [
      scope,
      { status: 404, description: 'PlatformApiConversationNotFoundError, PlatformApiReplyNotFoundError, PlatformAppCircleNotFoundError (`circleIds`): target missing or out of reach' },
      { status: 409, description: 'PlatformApiConflictError: the circle does not use chat' },
    ],
  }, async ({ auth, body }) => messages.reply(auth, body));

  api.route({
    operationId: 'postStreamEvent', method: 'post', path: '/streams/events', tag: 'messages', auth: 'install', status: 200,
    summary: 'Post one event to the app\'s stream in a circle (a new app conversation, or a message in the one its threadKey started)',
    description: 'Scope `replies:write`. Exactly one of `content` (no mentions, files or images) and `markdown`. '
      + '`idempotencyKey`: a resend within 24 hours answers the first answer and posts nothing. 60 events a minute per stream.',
    body: R.streamEvent.body, maxBytes, response: R.streamEvent.response,
    errors: [
      { status: 400, description: 'PlatformAppStreamInvalidPayloadError (`reason`: `invalid_document`, `unsupported_node`, `empty`)' },
      scope,
      { status: 404, description: 'PlatformAppCircleNotFoundError (`circleIds`): not in the workspace, out of reach, or gone while saving' },
      { status: 410, description: 'PlatformAppStreamRevokedError: the app\'s stream in the circle is revoked' },
      { status: 429, description: 'PlatformApiRateLimitExceededError: over 60 events a minute in this stream' },
    ],
  }, async ({ auth, body }) => messages.streamEvent(auth, body));
}
