/**
 * @module deliveries/outbox/retention
 * Bounded history (docs/decisions/lifecycle.md): acknowledged lifecycle deliveries are deleted
 * after `deliveryRetentionMs`, dead and cancelled ones after `settledRetentionMs`, interactive
 * records after `deliveryRetentionMs`, and events no install subscribed to (no delivery) after
 * `deliveryRetentionMs`. Deletes go in batches of `BATCH` rows (cascading to attempts), skipping
 * rows other workers hold, and at most `MAX_BATCHES` per kind per run, so a run never holds locks
 * for long and several replicas may prune at once.
 */
import type { Db } from '../../core/db/db.ts';

export const BATCH = 1_000;
export const MAX_BATCHES = 20;

const STATEMENTS = {
  delivered: `delete from outbox_events where id in (
    select event_id from deliveries where status = 'delivered' and class = 'lifecycle' and delivered_at < $1 limit $2 for update skip locked)`,
  settled: `delete from outbox_events where id in (
    select event_id from deliveries where status in ('dead', 'cancelled') and class = 'lifecycle' and created_at < $1 limit $2 for update skip locked)`,
  interactive: `delete from deliveries where id in (
    select id from deliveries where class = 'interactive' and created_at < $1 limit $2 for update skip locked)`,
  unsubscribed: `delete from outbox_events where id in (
    select e.id from outbox_events e where e.created_at < $1 and not exists (select 1 from deliveries d where d.event_id = e.id)
    limit $2 for update skip locked)`,
} as const;

async function prune(db: Db, sql: string, before: Date): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const { rowCount } = await db.query(sql, [before, BATCH]);
    total += rowCount;
    if (rowCount < BATCH) break;
  }
  return total;
}

/**
 * @example
 * const removed = await pruneDeliveries(db, { now: clock.now(), deliveryRetentionMs, settledRetentionMs });
 */
export async function pruneDeliveries(db: Db, input: { now: number; deliveryRetentionMs: number; settledRetentionMs: number }): Promise<Record<keyof typeof STATEMENTS, number>> {
  const recent = new Date(input.now - input.deliveryRetentionMs);
  const settled = new Date(input.now - input.settledRetentionMs);
  return {
    delivered: await prune(db, STATEMENTS.delivered, recent),
    settled: await prune(db, STATEMENTS.settled, settled),
    interactive: await prune(db, STATEMENTS.interactive, recent),
    unsubscribed: await prune(db, STATEMENTS.unsubscribed, recent),
  };
}
