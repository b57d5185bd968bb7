/**
 * @module apps/logs/service
 * Hosted apps' logs: a node's batch stored and published to live streams (`ingest`), one app's
 * lines read by its tooling, newest first with a cursor (`list`), and the live stream's two halves
 * (`replay` what was stored after an id, `subscribe` to what comes next). Readers need tooling
 * access to the app (`manageableApp`): another workspace's app, or one the caller may not manage,
 * is `PlatformAppNotFoundError`. Readers that may deploy previews only (a preview-only deploy
 * token, an agent builder token) see only the lines of the app's preview versions: production
 * lines carry what members sent the app.
 */
import { invalidRequest, PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Unsubscribe } from '../../core/kv/kv.ts';
import { manageableApp, type ToolingCaller } from '../guards/access.ts';
import type { LogScope } from './store.ts';
import type { LogFeed } from './feed.ts';
import type { LogFilters, LogLine, LogQuery, ShippedLine } from './schemas.ts';
import * as store from './store.ts';

/** Lines a stream replays from the database before going live. */
export const REPLAY_MAX = 500;

export function lineView(row: store.LogRow): LogLine {
  return {
    id: String(row.seq), at: row.at.toISOString(), appId: row.app_id, version: row.version, installId: row.install_id,
    requestId: row.request_id, deliveryId: row.delivery_id, kind: row.kind, level: row.level as LogLine['level'], status: row.status,
    message: row.message, request: row.request as LogLine['request'], error: (row.error ?? null) as LogLine['error'],
    profile: row.has_profile ? `/v0/apps/${row.app_id}/logs/${row.seq}/profile` : null,
  };
}

/** Whether a line passes a stream's filters (the database applies the same ones to a list). */
export function matches(line: LogLine, f: LogFilters): boolean {
  return (f.status === undefined || line.status === f.status) && (f.version === undefined || line.version === f.version)
    && (f.install === undefined || line.installId === f.install) && (f.kind === undefined || line.kind === f.kind)
    && (f.delivery === undefined || line.deliveryId === f.delivery);
}

const encodeCursor = (seq: number): string => Buffer.from(`s${seq}`).toString('base64url');
function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^s\d{1,19}$/.test(text)) throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API issued', code: 'invalid_cursor' }]);
  return Number(text.slice(1));
}

/** What `caller` may read of an app's lines. */
export function scopeOf(caller: ToolingCaller): LogScope {
  return caller.kind === 'agent' || (caller.kind === 'deploy' && caller.previewOnly) ? 'preview' : 'all';
}

/** A live stream's reader: which lines it may see (a version new since the stream opened is looked up once). */
export interface StreamReader {
  appId: string;
  scope: LogScope;
  visible(lines: LogLine[]): Promise<LogLine[]>;
}

export type LogsService = ReturnType<typeof createLogsService>;

/** What is told of each stored batch: the error groups fold its error and limit lines in. */
export interface StoredLinesListener {
  recordLines(rows: readonly store.LogRow[]): Promise<void>;
}

export function createLogsService(deps: { db: Db; clock: Clock; feed: LogFeed; errors?: StoredLinesListener; onStored?: () => void }) {
  const { db } = deps;
  const streams = new Set<() => void>();
  return {
    /** Stores a node's batch and publishes each app's stored lines; the count stored. */
    async ingest(node: string, lines: readonly ShippedLine[]): Promise<number> {
      const rows = await store.insertLines(db, node, lines, new Date(deps.clock.now()));
      // Log drains read what is new themselves; this only wakes them (never waits on one).
      if (rows.length > 0) deps.onStored?.();
      const byApp = new Map<string, LogLine[]>();
      for (const row of rows) {
        const list = byApp.get(row.app_id) ?? [];
        list.push(lineView(row));
        byApp.set(row.app_id, list);
      }
      await Promise.all([...byApp].map(([appId, list]) => deps.feed.publish(appId, list)));
      await deps.errors?.recordLines(rows);
      return rows.length;
    },

    async list(caller: ToolingCaller, appId: string, query: LogQuery): Promise<{ items: LogLine[]; nextCursor: string | null }> {
      const app = await manageableApp(db, caller, appId);
      const rows = await store.listLines(db, app.id, query, decodeCursor(query.cursor), query.limit + 1, scopeOf(caller));
      const more = rows.length > query.limit;
      const shown = more ? rows.slice(0, query.limit) : rows;
      return { items: shown.map(lineView), nextCursor: more ? encodeCursor(shown.at(-1)!.seq) : null };
    },

    /** The `.cpuprofile` JSON of one line (`PlatformApiNotFoundError` when the line has none). */
    async profile(caller: ToolingCaller, appId: string, lineId: string): Promise<{ appId: string; json: string }> {
      const app = await manageableApp(db, caller, appId);
      const found = /^\d{1,15}$/.test(lineId) ? await store.findProfile(db, app.id, Number(lineId)) : null;
      const hidden = found !== null && scopeOf(caller) === 'preview' && (found.version === null || !(await store.previewVersions(db, app.id)).preview.has(found.version));
      if (found === null || hidden) throw new PlatformError('PlatformApiNotFoundError', 'That log line has no CPU profile');
      return { appId: app.id, json: found.profile };
    },

    /** Checks access once, when a stream opens: the app, and which of its lines the stream may carry. */
    async authorize(caller: ToolingCaller, appId: string): Promise<StreamReader> {
      const app = await manageableApp(db, caller, appId);
      const scope = scopeOf(caller);
      let known: { preview: Set<number>; highest: number } | null = null;
      const visible = async (lines: LogLine[]): Promise<LogLine[]> => {
        if (scope === 'all') return lines;
        // Versions keep their number and target: only a version newer than those read sends us back to the table.
        if (known === null || lines.some((l) => l.version !== null && l.version > known!.highest)) known = await store.previewVersions(db, app.id);
        const { preview } = known;
        return lines.filter((l) => l.version !== null && preview.has(l.version));
      };
      return { appId: app.id, scope, visible };
    },

    /** Stored lines after `after`, oldest first (at most REPLAY_MAX: a stream resumes, it does not page). */
    async replay(reader: StreamReader, filters: LogFilters, after: number): Promise<LogLine[]> {
      return (await store.linesAfter(db, reader.appId, filters, after, REPLAY_MAX, reader.scope)).map(lineView);
    },

    subscribe(appId: string, handler: (lines: LogLine[]) => void): Promise<Unsubscribe> {
      return deps.feed.subscribe(appId, handler);
    },

    /** Registers an open stream's end, for `closeStreams`; returns the function that forgets it. */
    track(end: () => void): () => void {
      streams.add(end);
      return () => streams.delete(end);
    },

    /** Ends every open stream (the control plane is stopping: they would hold its server open). */
    closeStreams(): void {
      for (const end of [...streams]) end();
    },

    /** The app's lines of these ids that are still kept, as tooling reads them. */
    async linesByIds(appId: string, ids: readonly number[]): Promise<LogLine[]> {
      return (await store.linesByIds(db, appId, ids)).map(lineView);
    },

    /** Deletes lines stored longer ago than `retentionMs`; the count. */
    prune(retentionMs: number): Promise<number> {
      return store.pruneLines(db, new Date(deps.clock.now() - retentionMs));
    },
  };
}
