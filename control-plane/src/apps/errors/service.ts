/**
 * @module apps/errors/service
 * Error groups: occurrences folded in as the platform records them (`recordLines` after a node's
 * log batch is stored, `recordAttempts` after delivery attempts fail), and read by the app's
 * tooling (`list`, `get`). Recording never fails its caller: a group that cannot be written is
 * logged and the lines and attempts stay stored. Readers need tooling access to the app; readers
 * that may deploy previews only see the preview versions' occurrences, as with logs.
 */
import { invalidRequest, PlatformError, type ErrorGroup, type ErrorGroupDetail, type LogLine } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { manageableApp, type ToolingCaller } from '../guards/access.ts';
import { fromAttempts, fromLines, type FailedAttempt, type StoredLine } from './occurrences.ts';
import type { ErrorGroupQuery } from './schemas.ts';
import * as store from './store.ts';

export interface ErrorsServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The app's stored log lines of these ids that still exist (the examples of a group). */
  readLines(appId: string, ids: readonly number[]): Promise<LogLine[]>;
}

const encodeCursor = (row: store.GroupRow): string => Buffer.from(JSON.stringify([row.last_seen.toISOString(), row.fingerprint])).toString('base64url');

function decodeCursor(cursor: string | undefined): store.GroupQuery['before'] {
  if (cursor === undefined) return undefined;
  try {
    const [at, fingerprint] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const lastSeen = new Date(at as string);
    if (typeof fingerprint === 'string' && /^[0-9a-f]{32}$/.test(fingerprint) && !Number.isNaN(lastSeen.getTime())) return { lastSeen, fingerprint };
  } catch {
    // refused below
  }
  throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API issued', code: 'invalid_cursor' }]);
}

const versionOf = (v: number): number | null => (v === 0 ? null : v);

function groupView(row: store.GroupRow, versions: readonly store.VersionRow[]): ErrorGroup {
  return {
    id: row.fingerprint, level: row.level, name: row.name, message: row.message, sample: row.sample, topFrame: row.top_frame,
    count: row.count, firstSeen: row.first_seen.toISOString(), lastSeen: row.last_seen.toISOString(), installs: row.installs,
    versions: versions.map((v) => ({ version: versionOf(v.version), count: v.count, firstSeen: v.first_seen.toISOString(), lastSeen: v.last_seen.toISOString() })),
  };
}

export type ErrorsService = ReturnType<typeof createErrorsService>;

export function createErrorsService(deps: ErrorsServiceDeps) {
  const { db } = deps;

  async function record(what: string, occurrences: ReturnType<typeof fromLines>): Promise<void> {
    try {
      await store.recordOccurrences(db, occurrences);
    } catch (err) {
      deps.logger.warn({ err, count: occurrences.length }, `error groups not updated for ${what}`);
    }
  }

  /** The versions `caller` sees of the app: all, or its preview versions. */
  async function scopeFor(caller: ToolingCaller, appId: string): Promise<store.VersionScope> {
    if (!(caller.kind === 'agent' || (caller.kind === 'deploy' && caller.previewOnly))) return { kind: 'all' };
    const { rows } = await db.query<{ version: number }>(`select version from app_versions where app_id = $1 and target = 'preview'`, [appId]);
    return { kind: 'only', versions: rows.map((r) => r.version) };
  }

  async function views(appId: string, rows: store.GroupRow[], scope: store.VersionScope, version?: number): Promise<ErrorGroup[]> {
    const versions = await store.groupVersions(db, appId, rows.map((r) => r.fingerprint), scope, version);
    return rows.map((row) => groupView(row, versions.filter((v) => v.fingerprint === row.fingerprint)));
  }

  return {
    recordLines: (rows: readonly StoredLine[]): Promise<void> => record('log lines', fromLines(rows)),
    recordAttempts: (attempts: readonly FailedAttempt[]): Promise<void> => record('failed deliveries', fromAttempts(attempts)),

    /** The app's groups, last seen first, a page at a time. */
    async list(caller: ToolingCaller, appId: string, query: ErrorGroupQuery): Promise<{ items: ErrorGroup[]; nextCursor: string | null }> {
      const app = await manageableApp(db, caller, appId);
      const scope = await scopeFor(caller, app.id);
      const rows = await store.listGroups(db, app.id, scope, { version: query.version, level: query.level, before: decodeCursor(query.cursor), limit: query.limit + 1 });
      const more = rows.length > query.limit;
      const shown = more ? rows.slice(0, query.limit) : rows;
      return { items: await views(app.id, shown, scope, query.version), nextCursor: more ? encodeCursor(shown.at(-1)!) : null };
    },

    /** One group with its newest examples (`PlatformApiNotFoundError` when the reader sees none of it). */
    async get(caller: ToolingCaller, appId: string, groupId: string): Promise<ErrorGroupDetail> {
      const app = await manageableApp(db, caller, appId);
      const scope = await scopeFor(caller, app.id);
      const rows = /^[0-9a-f]{32}$/.test(groupId) ? await store.listGroups(db, app.id, scope, { fingerprint: groupId, limit: 1 }) : [];
      if (rows.length === 0) throw new PlatformError('PlatformApiNotFoundError', 'No such error group for this app');
      const versions = await store.groupVersions(db, app.id, [groupId], scope);
      const examples = versions.toReversed().flatMap((v) => v.examples.map((id) => ({ version: versionOf(v.version), id })));
      const lines = rows[0]!.level === 'delivery' ? [] : await deps.readLines(app.id, examples.map((e) => Number(e.id)));
      const byId = new Map(lines.map((l) => [l.id, l]));
      return {
        ...groupView(rows[0]!, versions),
        examples: examples.map((e) => (rows[0]!.level === 'delivery'
          ? { version: e.version, line: null, deliveryId: e.id }
          : { version: e.version, line: byId.get(e.id) ?? null, deliveryId: byId.get(e.id)?.deliveryId ?? null })),
      };
    },

    /** Deletes groups unseen for `retentionMs`; the count. */
    prune(retentionMs: number): Promise<number> {
      return store.pruneGroups(db, new Date(deps.clock.now() - retentionMs));
    },
  };
}
