/**
 * @module events/message-edits
 * Editing a message: the cause of `reference.removed` (a link the edit drops), and of
 * `reference.created` / `app.mentioned` for links and names it adds. The rule lives in
 * `messages/service.ts` (`edit`); this file holds its SQL and its route, which belong to the
 * messages feature once it takes them over.
 */
import type { ClientApi } from '../client-api/api.ts';
import { CLIENT_LIMITS } from '../client-limits.ts';
import type { Db } from '../db/db.ts';
import { MessageResponse, PostMessageBody } from '../messages/schemas.ts';
import type { MessagesService } from '../messages/service.ts';

/** Replaces the body of a message and counts the change; answers the new version. */
export async function updateMessageBody(db: Db, messageId: string, body: { content: unknown; markdown: string | null }): Promise<number> {
  const { rows } = await db.query<{ version: number }>(
    'update messages set content = $2::jsonb, markdown = $3, version = version + 1 where id = $1 returning version',
    [messageId, body.content === null ? null : JSON.stringify(body.content), body.markdown]);
  return rows[0]!.version;
}

export function registerMessageEditRoute(api: ClientApi, messages: MessagesService): void {
  api.route({
    operationId: 'editMessage', method: 'patch', path: '/messages/{messageId}', tag: 'messages', auth: 'member',
    summary: 'Replace the body of your message (links and app mentions it adds or drops cause reference and mention events)',
    body: PostMessageBody, maxBytes: CLIENT_LIMITS.messageBodyBytes, status: 200, response: MessageResponse,
    errors: [{ status: 403, description: 'PlatformApiForbiddenError: not your message, or the circle is read-only' }],
  }, async ({ auth, params, body }) => ({ message: await messages.edit(auth, params.messageId, body) }));
}
