/**
 * @module blocks/invocations/context
 * What a message action sends about its message (spec rule 4): `message` always; `thread` (the
 * thread's root and replies) when the version declares `thread`; for `conversation`, the
 * conversation (title, status, participants, its messages) when the message is filed in one, and
 * otherwise the chat or direct messages around it as `surrounding`. Arrays hold at most
 * CONTEXT_MESSAGES_MAX messages (the latest), each text at most CONTEXT_TEXT_MAX characters.
 */
import type { ContextMessage } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { plainText } from '../../workspace/events/content.ts';
import { conversationMessages, findConversationRow, surroundingOf, threadOf, type ContextRow } from './store.ts';

/** Ours: bounds that keep a delivery small (the spec's limits table names none). */
export const CONTEXT_MESSAGES_MAX = 50;
export const CONTEXT_TEXT_MAX = 4_000;

export type ContextLevel = 'message' | 'thread' | 'conversation';

export function contextMessage(row: ContextRow): ContextMessage {
  const text = plainText({ content: row.content as never, markdown: row.markdown });
  return {
    id: row.id,
    text: text.length > CONTEXT_TEXT_MAX ? text.slice(0, CONTEXT_TEXT_MAX) : text,
    author: row.author_member_id === null && row.author_app_id !== null
      ? { kind: 'app', id: row.author_app_id, name: row.author_name }
      : { kind: 'member', id: row.author_member_id ?? 'deleted', name: row.author_name },
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * @example
 * const context = await buildContext(db, row, 'thread'); // { level: 'thread', message, thread: [...] }
 */
export async function buildContext(db: Db, row: ContextRow, level: ContextLevel): Promise<Record<string, unknown>> {
  const context: Record<string, unknown> = { level, message: contextMessage(row) };
  if (level === 'thread') {
    context.thread = (await threadOf(db, row.reply_to ?? row.id, CONTEXT_MESSAGES_MAX)).map(contextMessage);
  } else if (level === 'conversation') {
    const conversation = row.conversation_id === null ? undefined : await findConversationRow(db, row.conversation_id);
    if (conversation === undefined) {
      context.surrounding = (await surroundingOf(db, row, CONTEXT_MESSAGES_MAX / 2)).map(contextMessage);
    } else {
      const messages = (await conversationMessages(db, conversation.id, CONTEXT_MESSAGES_MAX)).map(contextMessage);
      const participants = [...new Map(messages.map((m) => [`${m.author.kind}:${m.author.id}`, m.author])).values()];
      // `agreed` is the agreed text in the wire shape; the service stores only whether it was agreed, so it is null.
      context.conversation = { id: conversation.id, title: conversation.title, status: conversation.status, agreed: null, participants, messages };
    }
  }
  return context;
}
