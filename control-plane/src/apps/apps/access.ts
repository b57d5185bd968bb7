/**
 * @module apps/apps/access
 * Who manages an app: its owner, and the owners and admins of its workspace. Anyone else is told
 * the app does not exist (the same answer as for an app that really does not).
 */
import { PlatformError } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { findApp, type AppRow } from './store.ts';

/** The member behind a request: client-API actors and `/v0` member callers both fit. */
export interface MemberRef {
  workspaceId: string;
  memberId: string;
  role: 'owner' | 'admin' | 'member';
}

export function appNotFound(): PlatformError {
  return new PlatformError('PlatformAppNotFoundError', 'No such app, or you may not manage it', { path: ['appId'] });
}

export const isWorkspaceAdmin = (member: MemberRef): boolean => member.role === 'owner' || member.role === 'admin';

export function canManage(member: MemberRef, app: Pick<AppRow, 'workspace_id' | 'owner_member_id'>): boolean {
  return app.workspace_id === member.workspaceId && (app.owner_member_id === member.memberId || isWorkspaceAdmin(member));
}

export async function managedApp(db: Db, member: MemberRef, appId: string): Promise<AppRow> {
  const app = await findApp(db, appId);
  if (app === undefined || !canManage(member, app)) throw appNotFound();
  return app;
}

export function appsUnavailable(): PlatformError {
  return new PlatformError('PlatformAppsUnavailableError', 'Apps are turned off in this workspace');
}
