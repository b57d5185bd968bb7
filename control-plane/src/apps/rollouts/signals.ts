/**
 * @module apps/rollouts/signals
 * The platform's own figures on both sides of a rollout, from its start to its end (or now):
 *
 * - request lines of hosted apps (`app_logs`, level `request`, by `received_at`): the line's
 *   version says the side; a failure is any outcome but `ok` (an error, a CPU or memory limit
 *   stop, a deadline, a crash) or a 5xx;
 * - delivery attempts of any app (`delivery_attempts`): the install says the side (moved by the
 *   rollout and attempted after its move and before any move back: new; any other: old); a failure
 *   is an attempt with an error (no answer, a 5xx, a refused answer).
 *
 * A hosted app's delivery is both a request line and an attempt; it counts on both lists, for
 * either side alike. New error groups (an error fingerprint first seen on the new version) are
 * told beside the verdict.
 */
import type { Db } from '../../core/db/db.ts';
import type { RolloutRow } from './store.ts';
import type { Side } from './verdict.ts';

export interface Signals {
  newSide: Side;
  oldSide: Side;
  /** Error groups whose first version is the rollout's. */
  newErrorGroups: number;
}

interface Counted { side: 'new' | 'old'; outcomes: string; failures: string }

export async function readSignals(db: Db, rollout: Pick<RolloutRow, 'id' | 'app_id' | 'version' | 'started_at' | 'ended_at'>): Promise<Signals> {
  const { rows } = await db.query<Counted>(
    `with lines as (
       select case when version = $3 then 'new' else 'old' end as side, count(*) as outcomes,
              count(*) filter (where request->>'outcome' <> 'ok' or coalesce((request->>'httpStatus')::int, 0) >= 500) as failures
         from app_logs where app_id = $1 and level = 'request' and received_at >= $4 and ($5::timestamptz is null or received_at <= $5)
          and version is not null group by 1
     ), attempts as (
       select case when a.started_at >= m.moved_at and (m.reverted_at is null or a.started_at <= m.reverted_at) then 'new' else 'old' end as side, count(*) as outcomes,
              count(*) filter (where a.error is not null) as failures
         from deliveries d join delivery_attempts a on a.delivery_id = d.id
         left join rollout_installs m on m.rollout_id = $2 and m.install_id = d.install_id
        where d.app_id = $1 and d.created_at >= $4 and a.started_at >= $4 and ($5::timestamptz is null or a.started_at <= $5) group by 1
     )
     select side, sum(outcomes)::text as outcomes, sum(failures)::text as failures from (select * from lines union all select * from attempts) s group by side`,
    [rollout.app_id, rollout.id, rollout.version, rollout.started_at, rollout.ended_at]);
  const side = (name: 'new' | 'old'): Side => {
    const row = rows.find((r) => r.side === name);
    return { outcomes: Number(row?.outcomes ?? 0), failures: Number(row?.failures ?? 0) };
  };
  const groups = await db.query<{ n: string }>(
    `select count(*)::text as n from app_error_versions v where v.app_id = $1 and v.version = $2
        and not exists (select 1 from app_error_versions o where o.app_id = v.app_id and o.fingerprint = v.fingerprint and o.version < v.version and o.version > 0)`,
    [rollout.app_id, rollout.version]);
  return { newSide: side('new'), oldSide: side('old'), newErrorGroups: Number(groups.rows[0]?.n ?? 0) };
}
