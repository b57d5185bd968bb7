/**
 * @module apps/errors/store
 * SQL of the error groups (migration 027_error_groups.sql): occurrences folded into their groups
 * in one transaction, one app's groups newest first under a reader's version scope, one group's
 * versions, and pruning.
 */
import type { Db } from '../../core/db/db.ts';
import type { ErrorParts, TopFrame } from './fingerprint.ts';

/** One error seen once: a stored log line, or a failed delivery attempt. */
export interface Occurrence {
  appId: string;
  fingerprint: string;
  parts: ErrorParts;
  /** 0 when the occurrence names no version. */
  version: number;
  installId: string | null;
  at: Date;
  /** The log line's id, or the delivery's. */
  example: string;
  /** The occurrence's own text (unmasked, cut). */
  sample: string;
}

/** Examples kept per group and version (newest first). */
export const EXAMPLES_PER_VERSION = 5;

interface VersionFold { app_id: string; fingerprint: string; version: number; count: number; first_seen: Date; last_seen: Date; examples: string[] }

/** Occurrences summed per group and version, examples newest first. */
function foldVersions(occurrences: readonly Occurrence[]): VersionFold[] {
  const folds = new Map<string, VersionFold>();
  for (const o of occurrences) {
    const key = `${o.appId}\u0000${o.fingerprint}\u0000${o.version}`;
    const fold = folds.get(key) ?? { app_id: o.appId, fingerprint: o.fingerprint, version: o.version, count: 0, first_seen: o.at, last_seen: o.at, examples: [] };
    fold.count += 1;
    if (o.at < fold.first_seen) fold.first_seen = o.at;
    if (o.at >= fold.last_seen) fold.last_seen = o.at;
    fold.examples.unshift(o.example);
    fold.examples.length = Math.min(fold.examples.length, EXAMPLES_PER_VERSION);
    folds.set(key, fold);
  }
  return [...folds.values()];
}

/** The latest occurrence of each group (its text and frame stand for the group). */
function latestPerGroup(occurrences: readonly Occurrence[]): Occurrence[] {
  const latest = new Map<string, Occurrence>();
  for (const o of occurrences) {
    const key = `${o.appId}\u0000${o.fingerprint}`;
    const seen = latest.get(key);
    if (seen === undefined || o.at >= seen.at) latest.set(key, o);
  }
  return [...latest.values()];
}

/**
 * Folds a batch into its groups: three statements in one transaction, the same for any number of
 * occurrences. Occurrences of apps deleted meanwhile are skipped (the join on `apps`).
 */
export async function recordOccurrences(db: Db, occurrences: readonly Occurrence[]): Promise<void> {
  if (occurrences.length === 0) return;
  const groups = latestPerGroup(occurrences).map((o) => ({
    app_id: o.appId, fingerprint: o.fingerprint, level: o.parts.level, name: o.parts.name, message: o.parts.message,
    sample: o.sample, top_frame: o.parts.topFrame, at: o.at,
  }));
  const installs = occurrences.filter((o) => o.installId !== null).map((o) => ({ app_id: o.appId, fingerprint: o.fingerprint, version: o.version, install_id: o.installId }));
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into app_error_groups (app_id, fingerprint, level, name, message, sample, top_frame, first_seen, last_seen)
       select x.app_id, x.fingerprint, x.level, x.name, x.message, x.sample, x.top_frame, x.at, x.at
         from jsonb_to_recordset($1::jsonb) as x(app_id text, fingerprint text, level text, name text, message text, sample text, top_frame jsonb, at timestamptz)
         join apps a on a.id = x.app_id
       on conflict (app_id, fingerprint) do update set
         last_seen = greatest(app_error_groups.last_seen, excluded.last_seen),
         sample = case when excluded.last_seen >= app_error_groups.last_seen then excluded.sample else app_error_groups.sample end,
         top_frame = case when excluded.last_seen >= app_error_groups.last_seen then excluded.top_frame else app_error_groups.top_frame end`,
      [JSON.stringify(groups)]);
    await tx.query(
      `insert into app_error_versions (app_id, fingerprint, version, count, first_seen, last_seen, examples)
       select x.app_id, x.fingerprint, x.version, x.count, x.first_seen, x.last_seen, array(select jsonb_array_elements_text(x.examples))
         from jsonb_to_recordset($1::jsonb) as x(app_id text, fingerprint text, version integer, count bigint, first_seen timestamptz, last_seen timestamptz, examples jsonb)
         join app_error_groups g on g.app_id = x.app_id and g.fingerprint = x.fingerprint
       on conflict (app_id, fingerprint, version) do update set
         count = app_error_versions.count + excluded.count,
         first_seen = least(app_error_versions.first_seen, excluded.first_seen),
         last_seen = greatest(app_error_versions.last_seen, excluded.last_seen),
         examples = (excluded.examples || app_error_versions.examples)[1:${EXAMPLES_PER_VERSION}]`,
      [JSON.stringify(foldVersions(occurrences))]);
    if (installs.length > 0) {
      await tx.query(
        `insert into app_error_installs (app_id, fingerprint, version, install_id)
         select distinct x.app_id, x.fingerprint, x.version, x.install_id
           from jsonb_to_recordset($1::jsonb) as x(app_id text, fingerprint text, version integer, install_id text)
           join app_error_groups g on g.app_id = x.app_id and g.fingerprint = x.fingerprint
         on conflict do nothing`,
        [JSON.stringify(installs)]);
    }
  });
}

export interface GroupRow {
  fingerprint: string;
  level: ErrorParts['level'];
  name: string;
  message: string;
  sample: string;
  top_frame: TopFrame | null;
  count: number;
  first_seen: Date;
  last_seen: Date;
  installs: number;
}

export interface VersionRow {
  fingerprint: string;
  version: number;
  count: number;
  first_seen: Date;
  last_seen: Date;
  examples: string[];
}

/** Which versions a reader sees: all, or only these (preview-only readers). */
export type VersionScope = { kind: 'all' } | { kind: 'only'; versions: number[] };

export interface GroupQuery {
  version?: number;
  level?: ErrorParts['level'];
  fingerprint?: string;
  /** Keyset of the page before: groups last seen before this (ties by fingerprint). */
  before?: { lastSeen: Date; fingerprint: string };
  limit: number;
}

function versionClause(scope: VersionScope, query: GroupQuery, params: unknown[], column: string): string {
  const clauses: string[] = [];
  if (scope.kind === 'only') {
    params.push(scope.versions);
    clauses.push(`${column} = any($${params.length}::int[])`);
  }
  if (query.version !== undefined) {
    params.push(query.version);
    clauses.push(`${column} = $${params.length}`);
  }
  return clauses.length === 0 ? 'true' : clauses.join(' and ');
}

/** The app's groups, last seen first, summed over the versions the reader sees. */
export async function listGroups(db: Db, appId: string, scope: VersionScope, query: GroupQuery): Promise<GroupRow[]> {
  const params: unknown[] = [appId];
  const versions = versionClause(scope, query, params, 'v.version');
  const installVersions = versionClause(scope, query, params, 'i.version');
  const where = ['g.app_id = $1'];
  if (query.level !== undefined) {
    params.push(query.level);
    where.push(`g.level = $${params.length}`);
  }
  if (query.fingerprint !== undefined) {
    params.push(query.fingerprint);
    where.push(`g.fingerprint = $${params.length}`);
  }
  let having = '';
  if (query.before !== undefined) {
    params.push(query.before.lastSeen, query.before.fingerprint);
    having = `having (max(v.last_seen), g.fingerprint) < ($${params.length - 1}::timestamptz, $${params.length})`;
  }
  params.push(query.limit);
  const { rows } = await db.query<GroupRow>(
    `select g.fingerprint, g.level, g.name, g.message, g.sample, g.top_frame,
            sum(v.count)::bigint as count, min(v.first_seen) as first_seen, max(v.last_seen) as last_seen,
            (select count(distinct i.install_id) from app_error_installs i
              where i.app_id = g.app_id and i.fingerprint = g.fingerprint and ${installVersions})::bigint as installs
       from app_error_groups g
       join app_error_versions v on v.app_id = g.app_id and v.fingerprint = g.fingerprint and ${versions}
      where ${where.join(' and ')}
      group by g.app_id, g.fingerprint
      ${having}
      order by max(v.last_seen) desc, g.fingerprint desc
      limit $${params.length}`,
    params);
  return rows;
}

/** The versions of these groups the reader sees (only `version`, when given), lowest first. */
export async function groupVersions(db: Db, appId: string, fingerprints: readonly string[], scope: VersionScope, version?: number): Promise<VersionRow[]> {
  if (fingerprints.length === 0) return [];
  const params: unknown[] = [appId, fingerprints];
  const versions = versionClause(scope, { limit: 0, ...(version === undefined ? {} : { version }) }, params, 'version');
  const { rows } = await db.query<VersionRow>(
    `select fingerprint, version, count, first_seen, last_seen, examples from app_error_versions
      where app_id = $1 and fingerprint = any($2::text[]) and ${versions}
      order by fingerprint, version`,
    params);
  return rows;
}

/** Removes groups unseen since `before` (their versions and installs go with them). */
export async function pruneGroups(db: Db, before: Date): Promise<number> {
  const { rowCount } = await db.query('delete from app_error_groups where last_seen < $1', [before]);
  return rowCount ?? 0;
}
