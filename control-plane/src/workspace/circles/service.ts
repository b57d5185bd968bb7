/**
 * @module workspace/circles/service
 * Circles: creating, listing, membership, connecting to another workspace and ending that
 * connection, and inviting apps into private circles.
 */
import { PlatformError, invalidRequest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import { isAdmin, requireAdmin, type Actor } from '../../core/auth/actor.ts';
import { memberNotFound, memberView } from '../members/service.ts';
import { findMember } from '../members/store.ts';
import { findWorkspace } from '../workspaces/store.ts';
import { decodeCursor, iso, toPage, type PageQuery } from '../../core/http/common.ts';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { visibleCircle } from './access.ts';
import type { Circle } from './schemas.ts';
import * as store from './store.ts';

export const circleView = (row: store.CircleRow): Circle => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  visibility: row.visibility,
  chat: row.chat,
  connected: row.connected,
  connectedWorkspaceId: row.connected_workspace_id,
  readOnly: row.read_only,
  isMember: row.is_member,
  createdAt: iso(row.created_at),
});

const invitationView = (row: store.InvitationRow) => ({ circleId: row.circle_id, appId: row.app_id, invitedBy: row.invited_by, createdAt: iso(row.created_at) });

const APP_ID = new RegExp(`^[A-Za-z0-9_-]{1,${CLIENT_LIMITS.appId}}$`);

const conflict = (message: string) => new PlatformError('PlatformApiConflictError', message);

export type CirclesService = ReturnType<typeof createCirclesService>;

export function createCirclesService(deps: { db: Db; clock: Clock }) {
  const { db } = deps;
  const now = () => new Date(deps.clock.now());

  /** Managing membership and invitations: members of the circle, or workspace owners and admins. */
  const requireManager = (actor: Actor, circle: store.CircleRow, what: string) => {
    if (!circle.is_member && !isAdmin(actor)) {
      throw new PlatformError('PlatformApiForbiddenError', `Only members of the circle or workspace admins can ${what}`);
    }
  };

  return {
    async create(actor: Actor, input: { name: string; visibility: 'public' | 'private'; chat?: boolean | undefined }): Promise<Circle> {
      const id = newId('circle');
      await db.transaction(async (tx) => {
        const at = now();
        await store.insertCircle(tx, { id, workspace_id: actor.workspaceId, name: input.name, visibility: input.visibility, chat: input.chat ?? false, created_by: actor.memberId, created_at: at });
        await store.addCircleMember(tx, id, actor.memberId, at);
      });
      return circleView(await visibleCircle(db, actor, id));
    },

    async get(actor: Actor, circleId: string): Promise<Circle> {
      return circleView(await visibleCircle(db, actor, circleId));
    },

    async list(actor: Actor, query: PageQuery) {
      const rows = await store.listVisibleCircles(db, actor.workspaceId, actor.memberId, decodeCursor(query.cursor), query.limit);
      return toPage(rows, query.limit, circleView);
    },

    async listMembers(actor: Actor, circleId: string, query: PageQuery) {
      await visibleCircle(db, actor, circleId);
      return toPage(await store.listCircleMembers(db, circleId, decodeCursor(query.cursor), query.limit), query.limit, memberView);
    },

    /** Adds a member (idempotent). Anyone may join a public circle; adding others needs a manager. */
    async addMember(actor: Actor, circleId: string, memberId: string): Promise<void> {
      const circle = await visibleCircle(db, actor, circleId);
      if (memberId !== actor.memberId) requireManager(actor, circle, 'add members');
      if ((await findMember(db, actor.workspaceId, memberId)) === undefined) throw memberNotFound();
      await store.addCircleMember(db, circleId, memberId, now());
    },

    /** Removes a member. Anyone may leave; removing others needs an owner, an admin or the circle's creator. */
    async removeMember(actor: Actor, circleId: string, memberId: string): Promise<void> {
      const circle = await visibleCircle(db, actor, circleId);
      if (memberId !== actor.memberId && !isAdmin(actor) && circle.created_by !== actor.memberId) {
        throw new PlatformError('PlatformApiForbiddenError', 'Only workspace admins or the circle\'s creator can remove others');
      }
      if (!(await store.removeCircleMember(db, circleId, memberId))) throw memberNotFound();
    },

    /** Shares the circle with another workspace. Apps never reach a connected circle. */
    async connect(actor: Actor, circleId: string, otherWorkspaceId: string): Promise<Circle> {
      requireAdmin(actor, 'connect circles');
      await visibleCircle(db, actor, circleId);
      if (otherWorkspaceId === actor.workspaceId) {
        throw invalidRequest([{ path: ['workspaceId'], message: 'A circle connects to another workspace, not its own' }]);
      }
      if ((await findWorkspace(db, otherWorkspaceId)) === undefined) {
        throw new PlatformError('PlatformApiNotFoundError', 'No workspace with that id', { path: ['workspaceId'] });
      }
      if (!(await store.connectCircle(db, circleId, otherWorkspaceId, now()))) throw conflict('The circle is already connected (or was)');
      return circleView(await visibleCircle(db, actor, circleId));
    },

    /** Ends the connection: the circle keeps its history and becomes read-only. */
    async endConnection(actor: Actor, circleId: string): Promise<Circle> {
      requireAdmin(actor, 'end circle connections');
      await visibleCircle(db, actor, circleId);
      if (!(await store.endCircleConnection(db, circleId, now()))) throw conflict('The circle has no live connection to end');
      return circleView(await visibleCircle(db, actor, circleId));
    },

    async listInvitations(actor: Actor, circleId: string) {
      await visibleCircle(db, actor, circleId);
      return (await store.listInvitations(db, circleId)).map(invitationView);
    },

    /** Invites an app into a private circle (public circles need no invitation). Idempotent. */
    async inviteApp(actor: Actor, circleId: string, appId: string) {
      const circle = await visibleCircle(db, actor, circleId);
      requireManager(actor, circle, 'invite apps');
      if (!APP_ID.test(appId)) throw invalidRequest([{ path: ['appId'], message: 'Not an app id' }]);
      // An id that names no app (or another workspace's private app) is not invited and stored.
      if (!(await store.appVisibleTo(db, appId, actor.workspaceId))) throw new PlatformError('PlatformAppNotFoundError', 'No app with that id', { path: ['appId'] });
      if (circle.visibility !== 'private') throw conflict('Apps reach public circles without an invitation');
      await store.insertInvitation(db, { circle_id: circleId, app_id: appId, invited_by: actor.memberId, created_at: now() });
      const row = await store.findInvitation(db, circleId, appId);
      if (row === undefined) throw new Error('invitation vanished right after it was written');
      return invitationView(row);
    },

    async uninviteApp(actor: Actor, circleId: string, appId: string): Promise<void> {
      const circle = await visibleCircle(db, actor, circleId);
      requireManager(actor, circle, 'remove apps');
      if (!(await store.deleteInvitation(db, circleId, appId))) {
        throw new PlatformError('PlatformApiNotFoundError', 'That app is not invited to this circle', { path: ['appId'] });
      }
    },
  };
}
