/**
 * @module workspace/messages/delete
 * Deleting a message (`DELETE /client/v1/messages/{id}`): its author, or a workspace owner or
 * admin for messages in circles (messages an app posted, blocks included, have no member author).
 * Deleting a thread's root deletes its replies: a thread without its root has nowhere to be shown.
 * In the transaction of the deletion, for every message deleted: the links it carried cause
 * `reference.removed` (as an edit dropping them does), and a block it carried is marked removed
 * with `block.removed` (blocks/records/removal.ts, handed in by the composition root as `removeCarried`:
 * the workspace area knows no blocks).
 */
import { PlatformError } from '@platform/sdk';
import { assertWritable } from '../circles/access.ts';
import type { CircleRow } from '../circles/store.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { EventActor, EventProducer } from '../events/index.ts';
import { bumpMessageVersion } from '../events/store.ts';
import { isAdmin, type Actor } from '../../core/auth/actor.ts';
import * as store from './store.ts';

/**
 * What goes away with deleted messages besides the rows themselves (the blocks they carry), in the
 * transaction of the deletion and before the rows go.
 */
export type RemoveCarried = (tx: Db, input: { messageIds: readonly string[]; actor: EventActor | null; at: Date }) => Promise<unknown>;

export interface DeleteDeps {
  db: Db;
  clock: Clock;
  events: EventProducer;
  removeCarried?: RemoveCarried;
}

/**
 * @example
 * const { row, circle } = await visibleMessage(actor, id);
 * await deleteVisibleMessage(deps, actor, row, circle);
 */
export async function deleteVisibleMessage(deps: DeleteDeps, actor: Actor, row: store.MessageViewRow, circle: CircleRow | null): Promise<void> {
  const own = row.author_member_id !== null && row.author_member_id === actor.memberId;
  if (!own && !(circle !== null && isAdmin(actor))) {
    throw new PlatformError('PlatformApiForbiddenError', 'Only its author or a workspace owner or admin can delete a message', { path: ['messageId'] });
  }
  if (circle !== null) assertWritable(circle);
  const at = new Date(deps.clock.now());
  const actorRef = { memberId: actor.memberId, name: actor.name };
  const deleted = await deps.db.transaction(async (tx) => {
    const doomed = await store.messagesDeletedWith(tx, actor.workspaceId, row.id);
    if (doomed.length === 0) return false;
    for (const m of doomed) {
      if (m.circle_id === null) continue;
      // The deletion is a change of the message: its references carry the next version.
      const version = await bumpMessageVersion(tx, m.id);
      await deps.events.messageDeleted(tx, {
        id: m.id, workspaceId: m.workspace_id, circleId: m.circle_id, conversationId: m.conversation_id, replyTo: m.reply_to,
        body: { content: m.content, markdown: m.markdown }, author: { id: m.author_member_id ?? '', name: m.author_name ?? '' }, createdAt: m.created_at, version,
      }, actorRef, at);
    }
    await deps.removeCarried?.(tx, { messageIds: doomed.map((m) => m.id), actor: actorRef, at });
    return store.deleteMessage(tx, row.id);
  });
  if (!deleted) throw new PlatformError('PlatformApiNotFoundError', 'No message with that id that you can see', { path: ['messageId'] });
  deps.events.committed();
}
