/**
 * @module deliveries/page/service
 * The Deliveries page, for an app's developer (its owner, or an owner or admin of its workspace):
 * every delivery of the app across its installs with filters, one delivery with its attempts and
 * payload, the delivery state of each install, resuming a paused install (what waited is due at
 * once, with a fresh retry schedule) and redelivering one delivery (same `webhook-id`).
 */
import { PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { managedApp, type MemberRef } from '../../apps/apps/access.ts';
import { decodeCursor, encodeCursor, iso, isoOrNull } from '../../core/http/common.ts';
import { findInstall } from '../../apps/installs/store.ts';
import { appInstallHealth, resumeInstall } from '../outbox/pause-store.ts';
import { notifyWorkers } from '../outbox/store.ts';
import * as store from './store.ts';
import type { z } from 'zod';
import type { Delivery } from './schemas.ts';

const deliveryNotFound = () => new PlatformError('PlatformApiNotFoundError', 'No delivery with that id for this app', { path: ['deliveryId'] });
const conflict = (message: string) => new PlatformError('PlatformApiConflictError', message);

export const deliveryView = (row: store.DeliveryRow): z.output<typeof Delivery> => ({
  id: row.id,
  installId: row.install_id,
  class: row.class,
  type: row.type,
  outcome: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
  lastAttemptAt: isoOrNull(row.last_attempt_at),
  lastStatus: row.last_status,
  lastError: row.last_error,
  deliveredAt: isoOrNull(row.delivered_at),
  createdAt: iso(row.created_at),
});

export interface ListQuery extends store.DeliveryFilter {
  limit: number;
  cursor?: string | undefined;
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;

/** `wake` nudges this process's delivery loops after a re-queue commits. */
export function createDeliveriesService(deps: { db: Db; clock: Clock; wake: () => void }) {
  const { db } = deps;
  const now = () => new Date(deps.clock.now());

  return {
    async list(member: MemberRef, appId: string, query: ListQuery) {
      const app = await managedApp(db, member, appId);
      const rows = await store.listDeliveries(db, app.id, query, decodeCursor(query.cursor), query.limit);
      const more = rows.length > query.limit;
      const shown = more ? rows.slice(0, query.limit) : rows;
      const last = shown.at(-1);
      return { items: shown.map(deliveryView), nextCursor: more && last ? encodeCursor({ at: last.created_at, id: last.id }) : null };
    },

    async get(member: MemberRef, appId: string, deliveryId: string) {
      const app = await managedApp(db, member, appId);
      const row = await store.findDelivery(db, app.id, deliveryId);
      if (row === undefined) throw deliveryNotFound();
      const attempts = await store.listAttempts(db, row.id);
      return {
        delivery: deliveryView(row),
        attempts: attempts.map((a) => ({
          attempt: a.attempt, startedAt: iso(a.started_at), durationMs: a.duration_ms, status: a.status, error: a.error,
          response: a.response, responseTruncated: a.response_truncated,
        })),
        data: row.payload ?? row.request?.data ?? null,
        actor: row.actor ?? row.request?.actor ?? null,
      };
    },

    async installs(member: MemberRef, appId: string) {
      const app = await managedApp(db, member, appId);
      const rows = await appInstallHealth(db, app.id);
      return {
        items: rows.map((r) => ({
          installId: r.install_id, workspaceId: r.workspace_id, kind: r.kind, installStatus: r.status,
          paused: r.deliveries_paused_at === null ? null : { at: iso(r.deliveries_paused_at), reason: r.paused_reason },
          failingSince: isoOrNull(r.failing_since),
        })),
      };
    },

    async resume(member: MemberRef, appId: string, installId: string) {
      const app = await managedApp(db, member, appId);
      const requeued = await db.transaction(async (tx) => {
        if ((await findInstall(tx, installId))?.app_id !== app.id) throw new PlatformError('PlatformAppInstallNotFoundError', 'No such install of this app', { path: ['installId'] });
        const count = await resumeInstall(tx, installId, now());
        if (count === null) throw conflict('Deliveries to this install are not paused');
        await notifyWorkers(tx);
        return count;
      });
      deps.wake();
      return { installId, requeued };
    },

    async redeliver(member: MemberRef, appId: string, deliveryId: string) {
      const app = await managedApp(db, member, appId);
      const row = await store.findDelivery(db, app.id, deliveryId);
      if (row === undefined) throw deliveryNotFound();
      if (row.class === 'interactive') throw conflict('Interactive deliveries are answered while a member waits; they are never sent again');
      if (row.status === 'paused') throw conflict('Deliveries to this install are paused; resume the install first');
      if (row.status === 'cancelled') throw conflict('The app was uninstalled; this delivery is not sent again');
      await db.transaction(async (tx) => {
        if (!(await store.requeueDelivery(tx, app.id, deliveryId, now()))) throw conflict('The delivery changed meanwhile; reload it');
        await notifyWorkers(tx);
      });
      deps.wake();
      return { delivery: deliveryView((await store.findDelivery(db, app.id, deliveryId))!) };
    },
  };
}
