/**
 * @module deliveries/initiative/service
 * The tooling side of schedules and queues (ours, docs/decisions/queues.md), for the CLI and the
 * console: an app's schedules per install with next and last firing and outcome; a firing on
 * demand; each install's queue (depth, oldest message, dead letters); a send to an install's queue
 * as its author (the development install unless one is named). Callers must manage the app.
 */
import { PlatformError, type QueueSendRequest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { manageableApp, type ToolingCaller } from '../../apps/guards/access.ts';
import { newEventId } from '../../workspace/events/ids.ts';
import type { QueueService, SentMessage } from '../queues/service.ts';
import { appQueues, appSchedules, deadLetters, insertManualFiring, targetInstall } from './store.ts';
import type { z } from 'zod';
import type { QueueOverviewSchema, ScheduleListSchema } from './schemas.ts';

const DEAD_LETTERS_SHOWN = 20;
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export interface InitiativeService {
  schedules(caller: ToolingCaller, appId: string): Promise<z.infer<typeof ScheduleListSchema>>;
  runSchedule(caller: ToolingCaller, appId: string, name: string, installId?: string): Promise<{ id: string; installId: string; dueAt: string }>;
  queues(caller: ToolingCaller, appId: string): Promise<z.infer<typeof QueueOverviewSchema>>;
  send(caller: ToolingCaller, appId: string, body: QueueSendRequest & { installId?: string | undefined }): Promise<{ messages: SentMessage[] }>;
}

const noInstall = (installId: string | undefined) => new PlatformError('PlatformAppInstallNotFoundError',
  installId === undefined ? 'The app has no active development install (platform dev creates one); name an install with installId' : 'No active install of this app has that id',
  { path: ['installId'] });

export function createInitiativeService(deps: { db: Db; clock: Clock; queues: QueueService; wake(): void }): InitiativeService {
  const { db } = deps;
  return {
    async schedules(caller, appId) {
      const app = await manageableApp(db, caller, appId);
      const rows = await appSchedules(db, app.id);
      return {
        items: rows.map((r) => ({
          installId: r.install_id, installKind: r.install_kind, name: r.name, cron: r.cron, timeZone: r.time_zone,
          nextDueAt: iso(r.next_due_at), lastDueAt: iso(r.last_due_at), lastFiredAt: iso(r.last_fired_at), lastOutcome: r.last_outcome, skipped: r.skipped,
        })),
      };
    },
    async runSchedule(caller, appId, name, installId) {
      const app = await manageableApp(db, caller, appId);
      const install = await targetInstall(db, app.id, installId);
      if (!install) throw noInstall(installId);
      const id = newEventId();
      const fired = await insertManualFiring(db, { installId: install.id, appId: app.id, name, eventId: id, now: new Date(deps.clock.now()) });
      if (!fired) throw new PlatformError('PlatformApiNotFoundError', `The install has no schedule named "${name.slice(0, 48)}" (yet: schedules are read within a second of a version change)`, { path: ['name'] });
      deps.wake();
      return { id, installId: install.id, dueAt: fired.due_at.toISOString() };
    },
    async queues(caller, appId) {
      const app = await manageableApp(db, caller, appId);
      const now = deps.clock.now();
      const [rows, dead] = [await appQueues(db, app.id), await deadLetters(db, app.id, DEAD_LETTERS_SHOWN)];
      return {
        items: rows.map((r) => ({
          installId: r.install_id, installKind: r.install_kind, depth: r.depth, deadLetters: r.dead,
          oldestAgeSeconds: r.oldest_at === null ? null : Math.max(0, Math.round((now - r.oldest_at.getTime()) / 1000)),
        })),
        deadLetters: dead.map((d) => ({ id: d.id, installId: d.install_id, createdAt: d.created_at.toISOString(), attempts: d.attempts, lastError: d.last_error })),
      };
    },
    async send(caller, appId, body) {
      const app = await manageableApp(db, caller, appId);
      const install = await targetInstall(db, app.id, body.installId);
      if (!install) throw noInstall(body.installId);
      return deps.queues.send({ kind: 'install', workspaceId: install.workspace_id, appId: app.id, installId: install.id, installKind: install.kind, scopes: [] }, { messages: body.messages });
    },
  };
}
