/**
 * @module apps/usage/service
 * Usage over time: the nodes' flushes counted once each (`ingest`), and the series read by an
 * app's tooling (`forApp`: every install, or one), a workspace admin (`forWorkspaceApp`: the
 * installs of their workspace only, whoever wrote the app) and the operator page (`forOperator`:
 * every app of the workspace summed, with each app's totals).
 */
import { PlatformError } from '@platform/sdk';
import { requireAdmin, type Actor } from '../../core/auth/actor.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { findApp, listApps } from '../apps/store.ts';
import { manageableApp, type ToolingCaller } from '../guards/access.ts';
import type { UsageDelta } from './counters.ts';
import type { OperatorUsage, OperatorUsageQuery, UsageFlush, UsageQuery, UsageSeries } from './schemas.ts';
import { figures, pointsOf, totalsOf } from './series.ts';
import { addUsage, readSeries, readTotalsByApp, type InstallScope } from './store.ts';
import { usageWindow, type UsageWindow } from './window.ts';

export type UsageService = ReturnType<typeof createUsageService>;

/** A node's row as a delta: its version is summed away (usage is per app and install). */
function deltaOf(r: UsageFlush['rows'][number]): UsageDelta {
  const { appId, installId, minute, version: _version, ...counts } = r;
  return { appId, installId: installId ?? '', at: minute, counts };
}

export function createUsageService(deps: { db: Db; clock: Clock }) {
  const { db } = deps;

  async function series(appId: string, window: UsageWindow, scope: InstallScope, install: string | null): Promise<UsageSeries> {
    const points = pointsOf(window, await readSeries(db, [appId], window.step, window.from, window.to, scope));
    return { appId, install, step: window.step, from: window.from.toISOString(), to: window.to.toISOString(), points, totals: totalsOf(points) };
  }

  return {
    /** Counts a node's flush unless its key was counted before; answers whether it was new. */
    ingest: (flush: UsageFlush): Promise<boolean> => addUsage(db, flush.rows.map(deltaOf), { key: flush.key, at: new Date(deps.clock.now()) }),

    async forApp(caller: ToolingCaller, appId: string, query: UsageQuery): Promise<UsageSeries> {
      const app = await manageableApp(db, caller, appId);
      const window = usageWindow(query, deps.clock.now());
      return series(app.id, window, query.install === undefined ? { kind: 'all' } : { kind: 'one', installId: query.install }, query.install ?? null);
    },

    async forWorkspaceApp(actor: Actor, appId: string, query: UsageQuery): Promise<UsageSeries> {
      requireAdmin(actor, 'see an app\'s usage');
      const window = usageWindow(query, deps.clock.now());
      const app = await findApp(db, appId);
      if (app === undefined) throw new PlatformError('PlatformAppNotFoundError', 'No such app', { path: ['appId'] });
      const scope: InstallScope = { kind: 'workspace', workspaceId: actor.workspaceId };
      if (query.install === undefined) return series(app.id, window, scope, null);
      // One install, and only one of this workspace.
      const { rows } = await db.query('select 1 from installs where id = $1 and app_id = $2 and workspace_id = $3', [query.install, app.id, actor.workspaceId]);
      if (rows.length === 0) throw new PlatformError('PlatformAppInstallNotFoundError', 'No such install of this app in your workspace', { path: ['install'] });
      return series(app.id, window, { kind: 'one', installId: query.install }, query.install);
    },

    async forOperator(actor: Actor, query: OperatorUsageQuery): Promise<OperatorUsage> {
      requireAdmin(actor, 'see the apps\' usage');
      const window = usageWindow(query, deps.clock.now());
      const apps = await listApps(db, actor.workspaceId, null);
      const ids = apps.map((a) => a.id);
      const points = pointsOf(window, ids.length === 0 ? [] : await readSeries(db, ids, window.step, window.from, window.to, { kind: 'all' }));
      const totals = new Map((ids.length === 0 ? [] : await readTotalsByApp(db, ids, window.step, window.from, window.to)).map((t) => [t.app_id, t]));
      return {
        step: window.step, from: window.from.toISOString(), to: window.to.toISOString(), points,
        apps: apps.map((a) => {
          const t = totals.get(a.id);
          return { appId: a.id, slug: a.slug, name: a.name, totals: figures(t?.counts ?? {}, t?.storageBytes ?? null) };
        }),
      };
    },
  };
}
