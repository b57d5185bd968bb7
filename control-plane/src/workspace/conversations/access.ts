/**
 * @module workspace/conversations/access
 * A conversation is visible when its circle is; otherwise it answers as absent.
 */
import { PlatformError } from '@platform/sdk';
import { canSee } from '../circles/access.ts';
import { findCircle, type CircleRow } from '../circles/store.ts';
import type { Db } from '../../core/db/db.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { findConversation, type ConversationRow } from './store.ts';

export function conversationNotFound(): PlatformError {
  return new PlatformError('PlatformApiConversationNotFoundError', 'No conversation with that id in a circle you can see', { path: ['conversationId'] });
}

export async function visibleConversation(db: Db, actor: Actor, conversationId: string): Promise<{ conversation: ConversationRow; circle: CircleRow }> {
  const conversation = await findConversation(db, actor.workspaceId, conversationId);
  if (conversation === undefined) throw conversationNotFound();
  const circle = await findCircle(db, actor.workspaceId, conversation.circle_id, actor.memberId);
  if (circle === undefined || !canSee(circle)) throw conversationNotFound();
  return { conversation, circle };
}
