/**
 * @module messaging/app-messages/targets
 * Where a message an app posts goes, a reply (`POST /v0/replies`) or an inserted block's message
 * (blocks/app-api/insert.ts): exactly one of `conversationId`, `replyTo` and `circleId` (the
 * request schema checks "exactly one"). Each must be within the install's reach; a target outside
 * it answers as if it did not exist, with that target's own not-found error
 * (`PlatformApiConversationNotFoundError`, `PlatformApiReplyNotFoundError`,
 * `PlatformAppCircleNotFoundError` with `circleIds`). Direct messages are never within reach.
 *
 * Also the `target` of the `block.insert` delivery (spec, rule 2): `circleId` always (every block
 * of the API lands in a circle), `conversationId` when the message is filed in a conversation,
 * never `replyTo` (a reply arrives as its circle and, if it has one, its conversation).
 */
import { PlatformError } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { findConversation } from '../../workspace/conversations/store.ts';
import type { Db } from '../../core/db/db.ts';
import type { ReachGuard } from '../../apps/guards/index.ts';
import { findMessage } from '../../workspace/messages/store.ts';

/** Where a message an app posts (a block's, a reply) goes: its circle, conversation, thread root, and when it was filed. */
export interface MessagePlace {
  circleId: string;
  conversationId: string | null;
  replyTo: string | null;
  filedAt: Date | null;
}

export interface TargetBody {
  conversationId?: string | undefined;
  replyTo?: string | undefined;
  circleId?: string | undefined;
}

const conversationNotFound = () =>
  new PlatformError('PlatformApiConversationNotFoundError', 'No conversation with that id within the app\'s reach', { path: ['conversationId'] });
const replyNotFound = () => new PlatformError('PlatformApiReplyNotFoundError', 'No message with that id within the app\'s reach', { path: ['replyTo'] });
const circleNotFound = (id: string) =>
  new PlatformError('PlatformAppCircleNotFoundError', 'No circle with that id within the app\'s reach', { path: ['circleId'], fields: { circleIds: [id] } });

/**
 * The not-found error of the target `body` named, for a target deleted between `resolvePlace` and the
 * insert (a foreign key violation): it is absent now, as the checks would say.
 */
export function targetGone(body: TargetBody): PlatformError {
  if (body.conversationId !== undefined) return conversationNotFound();
  if (body.replyTo !== undefined) return replyNotFound();
  return circleNotFound(body.circleId ?? '');
}

/**
 * @example
 * const place = await resolvePlace(db, reach, auth, { conversationId: 'cnv_…' });
 */
export async function resolvePlace(db: Db, reach: ReachGuard, caller: InstallCaller, body: TargetBody): Promise<MessagePlace> {
  if (body.conversationId !== undefined) {
    const conversation = await findConversation(db, caller.workspaceId, body.conversationId);
    if (conversation === undefined) throw conversationNotFound();
    await reach.assertReachable(caller, conversation.circle_id, conversationNotFound);
    return { circleId: conversation.circle_id, conversationId: conversation.id, replyTo: null, filedAt: null };
  }
  if (body.replyTo !== undefined) {
    const message = await findMessage(db, caller.workspaceId, body.replyTo);
    if (message === undefined || message.circle_id === null) throw replyNotFound();
    await reach.assertReachable(caller, message.circle_id, replyNotFound);
    return { circleId: message.circle_id, conversationId: message.conversation_id, replyTo: message.reply_to ?? message.id, filedAt: message.filed_at };
  }
  const circleId = body.circleId!;
  const circle = await reach.assertReachable(caller, circleId, circleNotFound);
  if (!circle.chat) {
    throw new PlatformError('PlatformApiConflictError', 'This circle does not use chat: insert the block into a conversation or as a reply', { path: ['circleId'] });
  }
  return { circleId: circle.id, conversationId: null, replyTo: null, filedAt: null };
}

/** The `target` of `block.insert`: rule 2 of the interactive types. */
export function insertTarget(place: MessagePlace): { circleId: string; conversationId?: string } {
  return place.conversationId === null ? { circleId: place.circleId } : { circleId: place.circleId, conversationId: place.conversationId };
}
