/**
 * @module blocks/records/removal
 * A block goes away with its message (`DELETE /client/v1/messages/{id}`): the block row is marked
 * removed, not deleted (migration 011), its version moves on, and `block.removed` is recorded for
 * the install that created it (same fan-out rules as `block.created`), all in the transaction that
 * deletes the message. From then on every reader answers as if the block were absent (the app's
 * `GET /v0/blocks/{id}`, queries, bulk updates, the member's view and actions), so nothing is
 * delivered about it again.
 */
import type { Db } from '../../core/db/db.ts';
import type { EventActor, EventProducer } from '../../workspace/events/index.ts';
import { markRemoved } from './store.ts';
import { deliveredBlock } from './view.ts';

/**
 * Marks the blocks carried by these messages removed and records `block.removed` for each. Call
 * inside the transaction that deletes the messages, before deleting them (the block's conversation
 * is read through its message). Answers the ids of the blocks removed.
 *
 * @example
 * await db.transaction(async (tx) => {
 *   await removeBlocksOfMessages(tx, events, { messageIds: [id], actor, at });
 *   await deleteMessage(tx, id);
 * });
 */
export async function removeBlocksOfMessages(
  tx: Db, events: Pick<EventProducer, 'record'>, input: { messageIds: readonly string[]; actor: EventActor | null; at: Date },
): Promise<string[]> {
  if (input.messageIds.length === 0) return [];
  const rows = await markRemoved(tx, input.messageIds, input.at);
  for (const row of rows) {
    await events.record(tx, {
      type: 'block.removed', workspaceId: row.workspace_id, circleId: row.circle_id, installIds: [row.install_id], actor: input.actor,
      data: { block: { ...deliveredBlock(row), circleId: row.circle_id, conversationId: row.conversation_id } }, at: input.at,
    });
  }
  return rows.map((r) => r.id);
}
