/**
 * @module blocks/records/view
 * A block as the app API answers it (`BlockRecordSchema`: as delivered, plus whether it is final
 * and where it is) and as deliveries carry it (`{ id, type, props, state, revision, version }`).
 * Neither ever carries the tree's action table.
 */
import type { BlockRecord } from '@platform/sdk';
import type { BlockRow } from './store.ts';

export function blockRecord(row: BlockRow): BlockRecord {
  return {
    id: row.id,
    type: row.type,
    props: row.props,
    state: row.state,
    revision: row.revision,
    version: row.version,
    final: row.final,
    circleId: row.circle_id,
    conversationId: row.conversation_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The spec's "Block as delivered" (plus `version`, which every payload object carries). */
export function deliveredBlock(row: Pick<BlockRow, 'id' | 'type' | 'props' | 'state' | 'revision' | 'version'>) {
  return { id: row.id, type: row.type, props: row.props, state: row.state, revision: row.revision, version: row.version };
}
