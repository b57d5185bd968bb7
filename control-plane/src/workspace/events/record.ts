/**
 * @module workspace/events/record
 * Writing events: one outbox row per receiving install, in the caller's transaction, so the event
 * commits (or not) with the change that caused it. The 008 trigger creates each row's delivery and
 * wakes the workers on commit.
 */
import type { EventType } from '@platform/sdk';
import { newEventId } from './ids.ts';
import type { Db } from '../../core/db/db.ts';
import { findRecipients, type Recipient } from './fan-out.ts';
import { insertOutboxRows, type OutboxRow } from './store.ts';

export interface EventActor {
  memberId: string;
  name: string;
}

/** Collects outbox rows of one cause and writes them in one statement. */
export interface EventBatch {
  add(recipient: Pick<Recipient, 'installId'>, type: EventType, data: Record<string, unknown>): void;
  write(tx: Db): Promise<string[]>;
}

export function eventBatch(at: Date, actor: EventActor | null): EventBatch {
  const rows: OutboxRow[] = [];
  return {
    add(recipient, type, data) {
      rows.push({ id: newEventId(), install_id: recipient.installId, type, payload: data, actor, created_at: at });
    },
    async write(tx) {
      await insertOutboxRows(tx, rows);
      return rows.map((r) => r.id);
    },
  };
}

export interface RecordEventInput {
  type: EventType;
  workspaceId: string;
  /** The circle the event happened in (reach is checked against it); null when outside any circle. */
  circleId: string | null;
  /** Only these installs may receive it (still subject to subscription, scopes and reach). */
  installIds?: readonly string[];
  actor?: EventActor | null;
  /** The envelope's `data`; every object in it carries `version`. */
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Records one event for every install that receives it; answers the event ids (one per install).
 * This is what the blocks feature calls for `block.created` and `block.removed`.
 *
 * @example
 * await db.transaction(async (tx) => {
 *   await insertBlock(tx, block);
 *   await recordEvent(tx, { type: 'block.created', workspaceId, circleId: block.circleId, installIds: [installId],
 *     data: { block: { id, type, props, state, revision, version, circleId, conversationId } }, at });
 * });
 */
export async function recordEvent(tx: Db, input: RecordEventInput): Promise<string[]> {
  const recipients = await findRecipients(tx, { workspaceId: input.workspaceId, circleId: input.circleId, types: [input.type], installIds: input.installIds });
  const batch = eventBatch(input.at, input.actor ?? null);
  for (const r of recipients) if (r.accepts(input.type)) batch.add(r, input.type, input.data);
  return batch.write(tx);
}
