/**
 * @module apps/usage/store
 * SQL of `app_usage` (migration 031_app_usage.sql): adding deltas (each to its minute and its hour
 * in one statement, so an hour is always the exact sum of its minutes), sampling storage bytes,
 * reading a series, and pruning. Deltas of apps that no longer exist are skipped.
 */
import type { Db } from '../../core/db/db.ts';
import { bucketOf, COUNTER_COLUMNS, COUNTER_NAMES, COUNTERS, type Counts, type Step, type UsageDelta } from './counters.ts';

const SUMS = COUNTER_COLUMNS.map((c) => `coalesce(sum(x.${c}), 0)::bigint as ${c}`).join(', ');
const RECORD = COUNTER_COLUMNS.map((c) => `${c} bigint`).join(', ');
const ADD = COUNTER_COLUMNS.map((c) => `${c} = app_usage.${c} + excluded.${c}`).join(', ');
const COLUMNS = COUNTER_COLUMNS.join(', ');

/**
 * Adds the deltas; with `flushKey`, only when no flush with that key was added before (a node's
 * retried flush), in the same statement. Answers false when the key was seen already.
 */
export async function addUsage(db: Db, deltas: readonly UsageDelta[], flushKey: { key: string; at: Date } | null): Promise<boolean> {
  const rows = deltas.flatMap((d) => (['minute', 'hour'] as const).map((step) => {
    const row: Record<string, unknown> = { app_id: d.appId, install_id: d.installId, step, bucket: new Date(bucketOf(d.at, step)).toISOString(), storage_bytes: d.storageBytes ?? null };
    for (const name of COUNTER_NAMES) row[COUNTERS[name]] = d.counts[name] ?? 0;
    return row;
  }));
  const seen = flushKey === null ? 'select 1 as key' : 'insert into app_usage_flushes (key, received_at) values ($2, $3) on conflict do nothing returning key';
  const { rows: out } = await db.query<{ added: boolean }>(
    `with k as (${seen}),
     x as (select coalesce(x.app_id, i.app_id) as app_id, x.install_id, x.step, x.bucket, x.storage_bytes, ${COLUMNS}
       from jsonb_to_recordset($1::jsonb) as x(app_id text, install_id text, step text, bucket timestamptz, storage_bytes bigint, ${RECORD})
       left join installs i on x.app_id is null and i.id = x.install_id),
     g as (select x.app_id, x.install_id, x.step, x.bucket, max(x.storage_bytes) as storage_bytes, ${SUMS}
       from x join apps a on a.id = x.app_id where exists (select 1 from k)
       group by x.app_id, x.install_id, x.step, x.bucket),
     w as (insert into app_usage (app_id, install_id, step, bucket, storage_bytes, ${COLUMNS})
       select app_id, install_id, step, bucket, storage_bytes, ${COLUMNS} from g order by app_id, step, bucket, install_id
       on conflict (app_id, step, bucket, install_id) do update set ${ADD}, storage_bytes = greatest(app_usage.storage_bytes, excluded.storage_bytes))
     select exists (select 1 from k) as added`,
    flushKey === null ? [JSON.stringify(rows)] : [JSON.stringify(rows), flushKey.key, flushKey.at],
  );
  return out[0]?.added === true;
}

/**
 * Samples every storage space's bytes into the minute of `at` (set) and its hour (the highest
 * sample), attributed to the install the space serves (a development space shared by several
 * development installs of a workspace: to the first of them, so an app's sum counts it once).
 */
export async function sampleStorage(db: Db, at: number): Promise<number> {
  const { rowCount } = await db.query(
    `insert into app_usage as u (app_id, install_id, step, bucket, storage_bytes)
     select distinct on (i.app_id, i.workspace_id, i.kind, b.step) i.app_id, i.id, b.step, b.bucket, s.bytes
     from app_storage_spaces s
     join installs i on i.app_id = s.app_id and i.workspace_id = s.workspace_id and i.kind = s.kind and i.status <> 'uninstalled'
     cross join (values ('minute', $1::timestamptz), ('hour', $2::timestamptz)) as b (step, bucket)
     order by i.app_id, i.workspace_id, i.kind, b.step, i.id
     on conflict (app_id, step, bucket, install_id) do update
       set storage_bytes = case when excluded.step = 'minute' then excluded.storage_bytes else greatest(u.storage_bytes, excluded.storage_bytes) end`,
    [new Date(bucketOf(at, 'minute')), new Date(bucketOf(at, 'hour'))],
  );
  return rowCount;
}

/** Which installs a reading covers: all of the app's (and its routes'), one, or those of one workspace. */
export type InstallScope = { kind: 'all' } | { kind: 'one'; installId: string } | { kind: 'workspace'; workspaceId: string };

export interface SeriesRow extends Record<(typeof COUNTER_COLUMNS)[number], number> {
  bucket: Date;
  storage_bytes: number | null;
}

const scopeClause = (scope: InstallScope, params: unknown[]): string => {
  if (scope.kind === 'all') return '';
  if (scope.kind === 'one') {
    params.push(scope.installId);
    return ` and u.install_id = $${params.length}`;
  }
  params.push(scope.workspaceId);
  return ` and u.install_id in (select id from installs where app_id = u.app_id and workspace_id = $${params.length})`;
};

/** The buckets of `step` in [from, to) that have counts, summed over the installs in scope (the gauge too). */
export async function readSeries(db: Db, appIds: readonly string[], step: Step, from: Date, to: Date, scope: InstallScope): Promise<SeriesRow[]> {
  const params: unknown[] = [appIds, step, from, to];
  const { rows } = await db.query<SeriesRow>(
    `select u.bucket, sum(u.storage_bytes)::bigint as storage_bytes, ${COUNTER_COLUMNS.map((c) => `sum(u.${c})::bigint as ${c}`).join(', ')}
     from app_usage u where u.app_id = any($1::text[]) and u.step = $2 and u.bucket >= $3 and u.bucket < $4${scopeClause(scope, params)}
     group by u.bucket order by u.bucket`,
    params,
  );
  return rows;
}

/** Each app's sums over [from, to) (the gauge: its latest bucket's bytes), for the operator's table. */
export async function readTotalsByApp(db: Db, appIds: readonly string[], step: Step, from: Date, to: Date): Promise<Array<{ app_id: string; counts: Counts; storageBytes: number | null }>> {
  const { rows } = await db.query<Record<string, number | string | null>>(
    `select u.app_id, ${COUNTER_COLUMNS.map((c) => `sum(u.${c})::bigint as ${c}`).join(', ')},
       (select sum(l.storage_bytes)::bigint from app_usage l where l.app_id = u.app_id and l.step = $2
          and l.bucket = (select max(m.bucket) from app_usage m where m.app_id = u.app_id and m.step = $2 and m.bucket >= $3 and m.bucket < $4 and m.storage_bytes is not null)) as storage_bytes
     from app_usage u where u.app_id = any($1::text[]) and u.step = $2 and u.bucket >= $3 and u.bucket < $4
     group by u.app_id`,
    [appIds, step, from, to],
  );
  return rows.map((r) => ({
    app_id: String(r.app_id),
    counts: Object.fromEntries(COUNTER_NAMES.map((n) => [n, Number(r[COUNTERS[n]] ?? 0)])) as Counts,
    storageBytes: r.storage_bytes === null ? null : Number(r.storage_bytes),
  }));
}

/** Removes minute rows older than `minutesBefore`, hour rows older than `hoursBefore`, flush keys older than `keysBefore`. */
export async function pruneUsage(db: Db, cut: { minutesBefore: Date; hoursBefore: Date; keysBefore: Date }): Promise<number> {
  const a = await db.query(`delete from app_usage where step = 'minute' and bucket < $1`, [cut.minutesBefore]);
  const b = await db.query(`delete from app_usage where step = 'hour' and bucket < $1`, [cut.hoursBefore]);
  await db.query('delete from app_usage_flushes where received_at < $1', [cut.keysBefore]);
  return a.rowCount + b.rowCount;
}
