/**
 * @module workspace/conversations/client-routes
 * Conversations under `/circles/{circleId}/conversations` and `/conversations/{conversationId}`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { ConversationPage, ConversationResponse, CreateConversationBody, UpdateConversationBody } from './schemas.ts';
import type { ConversationsService } from './service.ts';

const readOnly = { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only' };

export function registerConversationClientRoutes(api: ClientApi, conversations: ConversationsService): void {
  api.route({
    operationId: 'createConversation', method: 'post', path: '/circles/{circleId}/conversations', tag: 'conversations', auth: 'member',
    summary: 'Start a conversation in a circle', body: CreateConversationBody, status: 201, response: ConversationResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ conversation: await conversations.create(auth, params.circleId, body) }));

  api.route({
    operationId: 'listConversations', method: 'get', path: '/circles/{circleId}/conversations', tag: 'conversations', auth: 'member',
    summary: 'Conversations of a circle, oldest first', query: PageQuery, status: 200, response: ConversationPage,
  }, async ({ auth, params, query }) => conversations.list(auth, params.circleId, query));

  api.route({
    operationId: 'getConversation', method: 'get', path: '/conversations/{conversationId}', tag: 'conversations', auth: 'member',
    summary: 'One conversation', status: 200, response: ConversationResponse,
  }, async ({ auth, params }) => ({ conversation: await conversations.get(auth, params.conversationId) }));

  api.route({
    operationId: 'updateConversation', method: 'patch', path: '/conversations/{conversationId}', tag: 'conversations', auth: 'member',
    summary: 'Change the title, status or agreement of a conversation (null clears status and agreed)',
    body: UpdateConversationBody, status: 200, response: ConversationResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ conversation: await conversations.update(auth, params.conversationId, body) }));
}
