/**
 * @module apps/logs/store
 * SQL of the `app_logs` table (migration 018_app_logs.sql): a node's batch in one statement, one
 * app's lines newest first under filters, the lines after an id (the stream's replay), and pruning.
 */
import type { Db } from '../../core/db/db.ts';
import type { LogFilters, ShippedLine } from './schemas.ts';

/**
 * Which lines a reader may see: all of the app's, or only those of its preview versions (readers
 * that may deploy previews only: production lines carry members' data).
 */
export type LogScope = 'all' | 'preview';

/** The app's preview version numbers, and its highest version number of any target (0: none). */
export async function previewVersions(db: Db, appId: string): Promise<{ preview: Set<number>; highest: number }> {
  const { rows } = await db.query<{ version: number; target: string }>('select version, target from app_versions where app_id = $1', [appId]);
  return { preview: new Set(rows.filter((r) => r.target === 'preview').map((r) => r.version)), highest: Math.max(0, ...rows.map((r) => r.version)) };
}

export interface LogRow {
  seq: number;
  app_id: string;
  at: Date;
  version: number | null;
  install_id: string | null;
  request_id: string | null;
  delivery_id: string | null;
  kind: string;
  level: string;
  status: 'ok' | 'error';
  message: string;
  request: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  has_profile: boolean;
}

const COLUMNS = 'seq, app_id, at, version, install_id, request_id, delivery_id, kind, level, status, message, request, error, profile is not null as has_profile';

/**
 * Text Postgres can store: no NUL (text refuses it) and no lone surrogate (jsonb refuses its
 * escape). Guests log what they like; one such line must not block its node's batches.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storable = (s: string): string => s.replace(UNSTORABLE, '\uFFFD');
const storableOrNull = (s: string | null | undefined): string | null => (s === null || s === undefined ? null : storable(s));

/** An error's every string made storable (its name, message, and each frame's function and file). */
function storableError(e: NonNullable<ShippedLine['error']>): NonNullable<ShippedLine['error']> {
  const position = <P extends { function: string | null; file: string | null }>(p: P): P => ({ ...p, function: storableOrNull(p.function), file: storableOrNull(p.file) });
  return { name: storable(e.name), message: storable(e.message), frames: e.frames.map((f) => ({ ...position(f), raw: f.raw === null ? null : position(f.raw) })) };
}

/**
 * Stores a batch in its order; lines of apps that do not exist (deleted meanwhile) are skipped.
 * Returns the stored rows, with their ids.
 */
export async function insertLines(db: Db, node: string, lines: readonly ShippedLine[], receivedAt: Date): Promise<LogRow[]> {
  if (lines.length === 0) return [];
  const { rows } = await db.query<LogRow>(
    `insert into app_logs (app_id, at, received_at, version, install_id, request_id, delivery_id, kind, level, status, message, request, error, profile, node)
     select x.app_id, x.at, $2, x.version, x.install_id, nullif(x.request_id, ''), x.delivery_id, x.kind, x.level, x.status, x.message, x.request, x.error, x.profile, $3
     from jsonb_to_recordset($1::jsonb) as x(app_id text, at timestamptz, version integer, install_id text, request_id text,
       delivery_id text, kind text, level text, status text, message text, request jsonb, error jsonb, profile text, ord bigint)
     join apps a on a.id = x.app_id
     order by x.ord
     returning ${COLUMNS}`,
    [JSON.stringify(lines.map((l, ord) => ({ ord,
      app_id: l.appId, at: l.at, version: l.version, install_id: storableOrNull(l.installId), request_id: storable(l.requestId),
      delivery_id: storableOrNull(l.deliveryId), kind: storable(l.kind), level: l.level, status: l.status, message: storable(l.message),
      request: l.request === undefined ? null : { ...l.request, label: storable(l.request.label) }, error: l.error === undefined ? null : storableError(l.error),
      profile: storableOrNull(l.profile),
    }))), receivedAt, node],
  );
  return rows;
}

function where(appId: string, filters: LogFilters, params: unknown[], scope: LogScope): string {
  params.push(appId);
  const clauses = ['app_id = $1'];
  if (scope === 'preview') clauses.push(`version in (select v.version from app_versions v where v.app_id = $1 and v.target = 'preview')`);
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', `$${params.length}`));
  };
  if (filters.status !== undefined) add('status = ?', filters.status);
  if (filters.version !== undefined) add('version = ?', filters.version);
  if (filters.install !== undefined) add('install_id = ?', filters.install);
  if (filters.kind !== undefined) add('kind = ?', filters.kind);
  if (filters.delivery !== undefined) add('delivery_id = ?', filters.delivery);
  return clauses.join(' and ');
}

/** Newest first: `limit` lines with ids below `before` (all when null). */
export async function listLines(db: Db, appId: string, filters: LogFilters, before: number | null, limit: number, scope: LogScope): Promise<LogRow[]> {
  const params: unknown[] = [];
  let sql = `select ${COLUMNS} from app_logs where ${where(appId, filters, params, scope)}`;
  if (before !== null) {
    params.push(before);
    sql += ` and seq < $${params.length}`;
  }
  params.push(limit);
  const { rows } = await db.query<LogRow>(`${sql} order by seq desc limit $${params.length}`, params);
  return rows;
}

/** Oldest first: at most `limit` lines with ids above `after`. */
export async function linesAfter(db: Db, appId: string, filters: LogFilters, after: number, limit: number, scope: LogScope): Promise<LogRow[]> {
  const params: unknown[] = [];
  const sql = `select ${COLUMNS} from app_logs where ${where(appId, filters, params, scope)}`;
  params.push(after, limit);
  const { rows } = await db.query<LogRow>(`${sql} and seq > $${params.length - 1} order by seq asc limit $${params.length}`, params);
  return rows;
}

/** The app's lines of these ids that are still kept, newest first. */
export async function linesByIds(db: Db, appId: string, ids: readonly number[]): Promise<LogRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<LogRow>(`select ${COLUMNS} from app_logs where app_id = $1 and seq = any($2::bigint[]) order by seq desc`, [appId, ids]);
  return rows;
}

/** The profile stored with one line of the app, or null. */
export async function findProfile(db: Db, appId: string, seq: number): Promise<{ profile: string; version: number | null } | null> {
  const { rows } = await db.query<{ profile: string | null; version: number | null }>('select profile, version from app_logs where app_id = $1 and seq = $2', [appId, seq]);
  const row = rows[0];
  return row === undefined || row.profile === null ? null : { profile: row.profile, version: row.version };
}

export const PRUNE_BATCH = 5_000;

/** Deletes lines stored before `before`, in batches; the count. */
export async function pruneLines(db: Db, before: Date, maxBatches = 20): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const { rowCount } = await db.query(
      'delete from app_logs where seq in (select seq from app_logs where received_at < $1 limit $2 for update skip locked)', [before, PRUNE_BATCH]);
    total += rowCount;
    if (rowCount < PRUNE_BATCH) break;
  }
  return total;
}
