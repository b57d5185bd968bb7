/**
 * @module messaging/app-messages/stream-admin
 * The member's side of app streams: the streams of a circle (any member who sees the circle), and
 * revoking or un-revoking one (workspace owners and admins). A revoked stream refuses the app's
 * events with 410 (`PlatformAppStreamRevokedError`) until an owner or admin un-revokes it: the app
 * cannot undo it by posting again, and nothing already posted is removed either way
 * (docs/decisions/app-messages.md, docs/decisions/member-features.md).
 */
import { PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { requireAdmin, type Actor } from '../../core/auth/actor.ts';
import { findVisibleStream, listCircleStreams, revokeStream, unrevokeStream, type StreamListRow } from './store.ts';

export interface StreamView {
  id: string;
  circleId: string;
  appId: string;
  name: string;
  icon: string | null;
  createdAt: string;
  revoked: { at: string; byMemberId: string | null } | null;
}

function view(row: StreamListRow): StreamView {
  return {
    id: row.id, circleId: row.circle_id, appId: row.app_id, name: row.name, icon: row.icon, createdAt: row.created_at.toISOString(),
    revoked: row.revoked_at === null ? null : { at: row.revoked_at.toISOString(), byMemberId: row.revoked_by },
  };
}

const streamNotFound = (): PlatformError => new PlatformError('PlatformApiNotFoundError', 'No such stream');

export type StreamAdmin = ReturnType<typeof createStreamAdmin>;

export function createStreamAdmin(deps: { db: Db; clock: Clock }) {
  async function change(actor: Actor, streamId: string, what: string, write: () => Promise<void>): Promise<{ stream: StreamView }> {
    // Absent and invisible streams answer alike, before the role check: a member learns nothing.
    const found = await findVisibleStream(deps.db, actor.workspaceId, streamId, actor.memberId);
    if (found === undefined) throw streamNotFound();
    requireAdmin(actor, what);
    await write();
    return { stream: view((await findVisibleStream(deps.db, actor.workspaceId, streamId, actor.memberId)) ?? found) };
  }

  return {
    async list(actor: Actor, circleId: string): Promise<{ streams: StreamView[] }> {
      const rows = await listCircleStreams(deps.db, actor.workspaceId, circleId, actor.memberId);
      if (rows === undefined) throw new PlatformError('PlatformApiNotFoundError', 'No such circle');
      return { streams: rows.map(view) };
    },
    revoke: (actor: Actor, streamId: string) =>
      change(actor, streamId, 'revoke an app\'s stream', () => revokeStream(deps.db, streamId, actor.memberId, new Date(deps.clock.now()))),
    /** Lifts a revocation (idempotent): the app's later events are accepted again. */
    unrevoke: (actor: Actor, streamId: string) => change(actor, streamId, 'un-revoke an app\'s stream', () => unrevokeStream(deps.db, streamId)),
  };
}
