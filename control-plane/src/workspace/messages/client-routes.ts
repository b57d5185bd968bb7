/**
 * @module workspace/messages/client-routes
 * Messages in conversations, chat messages in circles, replies, filing, and direct messages.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { DirectMessageBody, FileMessageBody, MessagePage, MessageResponse, PostMessageBody } from './schemas.ts';
import type { MessagesService } from './service.ts';

const maxBytes = CLIENT_LIMITS.messageBodyBytes;
const readOnly = { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only' };
const conflict = { status: 409, description: 'PlatformApiConflictError: the target does not take this message' };

export function registerMessageClientRoutes(api: ClientApi, messages: MessagesService): void {
  api.route({
    operationId: 'postConversationMessage', method: 'post', path: '/conversations/{conversationId}/messages', tag: 'messages', auth: 'member',
    summary: 'Post a message in a conversation', body: PostMessageBody, maxBytes, status: 201, response: MessageResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ message: await messages.postInConversation(auth, params.conversationId, body) }));

  api.route({
    operationId: 'listConversationMessages', method: 'get', path: '/conversations/{conversationId}/messages', tag: 'messages', auth: 'member',
    summary: 'Messages of a conversation, oldest first (replies are listed per thread)', query: PageQuery, status: 200, response: MessagePage,
  }, async ({ auth, params, query }) => messages.listInConversation(auth, params.conversationId, query));

  api.route({
    operationId: 'postChatMessage', method: 'post', path: '/circles/{circleId}/messages', tag: 'messages', auth: 'member',
    summary: 'Post a chat message in a circle that uses chat (not filed in a conversation)',
    body: PostMessageBody, maxBytes, status: 201, response: MessageResponse, errors: [readOnly, conflict],
  }, async ({ auth, params, body }) => ({ message: await messages.postChat(auth, params.circleId, body) }));

  api.route({
    operationId: 'listChatMessages', method: 'get', path: '/circles/{circleId}/messages', tag: 'messages', auth: 'member',
    summary: 'Chat messages of a circle not filed in a conversation', query: PageQuery, status: 200, response: MessagePage,
  }, async ({ auth, params, query }) => messages.listChat(auth, params.circleId, query));

  api.route({
    operationId: 'getMessage', method: 'get', path: '/messages/{messageId}', tag: 'messages', auth: 'member',
    summary: 'One message', status: 200, response: MessageResponse,
  }, async ({ auth, params }) => ({ message: await messages.get(auth, params.messageId) }));

  api.route({
    operationId: 'deleteMessage', method: 'delete', path: '/messages/{messageId}', tag: 'messages', auth: 'member',
    summary: 'Delete a message (its author, or a workspace owner or admin); a thread\'s root goes with its replies',
    description: 'Links the deleted messages carried cause `reference.removed`; a block a deleted message carried is removed (`block.removed`) '
      + 'and answers as absent from then on.',
    status: 204,
    errors: [{ status: 403, description: 'PlatformApiForbiddenError: not your message and you are not an owner or admin, or the circle is read-only' }],
  }, async ({ auth, params }) => {
    await messages.remove(auth, params.messageId);
  });

  api.route({
    operationId: 'replyToMessage', method: 'post', path: '/messages/{messageId}/replies', tag: 'messages', auth: 'member',
    summary: 'Reply to a message (the reply joins the thread of its root message)',
    body: PostMessageBody, maxBytes, status: 201, response: MessageResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ message: await messages.reply(auth, params.messageId, body) }));

  api.route({
    operationId: 'listReplies', method: 'get', path: '/messages/{messageId}/replies', tag: 'messages', auth: 'member',
    summary: 'Replies in the thread of a message, oldest first', query: PageQuery, status: 200, response: MessagePage,
  }, async ({ auth, params, query }) => messages.listReplies(auth, params.messageId, query));

  api.route({
    operationId: 'fileMessage', method: 'post', path: '/messages/{messageId}/file', tag: 'messages', auth: 'member',
    summary: 'File a chat message (and its replies) into a conversation of the same circle',
    body: FileMessageBody, status: 200, response: MessageResponse, errors: [readOnly, conflict],
  }, async ({ auth, params, body }) => ({ message: await messages.file(auth, params.messageId, body.conversationId) }));

  api.route({
    operationId: 'sendDirectMessage', method: 'post', path: '/direct-messages', tag: 'messages', auth: 'member',
    summary: 'Send a direct message to another member', body: DirectMessageBody, maxBytes, status: 201, response: MessageResponse,
    errors: [{ status: 404, description: 'PlatformApiNotFoundError: no member with that id (`to`)' }],
  }, async ({ auth, body }) => ({ message: await messages.sendDirect(auth, body.to, body) }));

  api.route({
    operationId: 'listDirectMessages', method: 'get', path: '/direct-messages/{memberId}', tag: 'messages', auth: 'member',
    summary: 'Direct messages between you and another member, oldest first', query: PageQuery, status: 200, response: MessagePage,
  }, async ({ auth, params, query }) => messages.listDirect(auth, params.memberId, query));

  // Editing is the cause of reference.removed for a link the edit drops, and of reference.created /
  // app.mentioned for what it adds (the rule is in service.ts `edit`).
  api.route({
    operationId: 'editMessage', method: 'patch', path: '/messages/{messageId}', tag: 'messages', auth: 'member',
    summary: 'Replace the body of your message (links and app mentions it adds or drops cause reference and mention events)',
    body: PostMessageBody, maxBytes: CLIENT_LIMITS.messageBodyBytes, status: 200, response: MessageResponse,
    errors: [{ status: 403, description: 'PlatformApiForbiddenError: not your message, or the circle is read-only' }],
  }, async ({ auth, params, body }) => ({ message: await messages.edit(auth, params.messageId, body) }));
}
