/**
 * @module apps/guards/reach
 * The reach rule (workspace/reach/reach.ts) wired to the database, for writes made with an install token:
 * a target circle out of reach answers as if it did not exist, with the caller's own not-found
 * error (each endpoint has its tag: `PlatformAppCircleNotFoundError`, a conversation's, …).
 */
import type { PlatformError } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { Db } from '../../core/db/db.ts';
import { canReach } from '../../workspace/reach/reach.ts';

export interface ReachableCircle {
  id: string;
  workspaceId: string;
  visibility: 'public' | 'private';
  chat: boolean;
  connected: boolean;
  readOnly: boolean;
}

interface Row {
  id: string;
  workspace_id: string;
  visibility: 'public' | 'private';
  chat: boolean;
  connected: boolean;
  read_only: boolean;
  app_invited: boolean;
  developer_is_member: boolean;
}

export type ReachCaller = Pick<InstallCaller, 'workspaceId' | 'appId' | 'installKind'>;

export interface ReachGuard {
  /** The circle when the install reaches it; otherwise throws `notFound(circleId)`. */
  assertReachable(caller: ReachCaller, circleId: string, notFound: (circleId: string) => PlatformError): Promise<ReachableCircle>;
}

/**
 * @example
 * const reach = createReachGuard({ db });
 * const circle = await reach.assertReachable(auth, body.circleId, (id) =>
 *   new PlatformError('PlatformAppCircleNotFoundError', 'No such circle', { fields: { circleIds: [id] } }));
 */
export function createReachGuard(deps: { db: Db }): ReachGuard {
  return {
    async assertReachable(caller, circleId, notFound) {
      // The developer of a dev install is the owner of its (development) app.
      const { rows } = await deps.db.query<Row>(
        `select c.id, c.workspace_id, c.visibility, c.chat, c.connected, c.read_only,
           exists (select 1 from circle_app_invitations i where i.circle_id = c.id and i.app_id = $3) as app_invited,
           exists (select 1 from circle_members m join apps a on a.owner_member_id = m.member_id
                   where m.circle_id = c.id and a.id = $3) as developer_is_member
         from circles c where c.id = $1 and c.workspace_id = $2`, [circleId, caller.workspaceId, caller.appId]);
      const row = rows[0];
      if (row === undefined || !canReach({
        installKind: caller.installKind,
        circle: { visibility: row.visibility, connected: row.connected, readOnly: row.read_only },
        appInvited: row.app_invited,
        developerIsMember: row.developer_is_member,
      })) throw notFound(circleId);
      return { id: row.id, workspaceId: row.workspace_id, visibility: row.visibility, chat: row.chat, connected: row.connected, readOnly: row.read_only };
    },
  };
}
