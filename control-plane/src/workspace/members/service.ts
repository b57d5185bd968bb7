/**
 * @module workspace/members/service
 * Members and roles. Owners and admins add members; only an owner can make another owner.
 */
import { PlatformError } from '@platform/sdk';
import type { ApiKeysService } from '../api-keys/service.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import { decodeCursor, iso, toPage, type PageQuery } from '../../core/http/common.ts';
import { requireAdmin, type Actor, type Role } from '../../core/auth/actor.ts';
import type { Member } from './schemas.ts';
import { findMember, findMemberInWorkspace, insertMember, listMembers, type MemberRow } from './store.ts';

export const memberView = (row: MemberRow): Member => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  role: row.role,
  createdAt: iso(row.created_at),
});

export function memberNotFound(): PlatformError {
  return new PlatformError('PlatformApiNotFoundError', 'No member with that id in this workspace', { path: ['memberId'] });
}

export type MembersService = ReturnType<typeof createMembersService>;

export function createMembersService(deps: { db: Db; clock: Clock; apiKeys: ApiKeysService }) {
  return {
    async create(actor: Actor, input: { name: string; role: Role }): Promise<{ member: Member; apiKey: string }> {
      requireAdmin(actor, 'add members');
      if (input.role === 'owner' && actor.role !== 'owner') {
        throw new PlatformError('PlatformApiForbiddenError', 'Only an owner can add another owner', { path: ['role'] });
      }
      return deps.db.transaction(async (tx) => {
        const row: MemberRow = { id: newId('member'), workspace_id: actor.workspaceId, name: input.name, role: input.role, created_at: new Date(deps.clock.now()) };
        await insertMember(tx, row);
        const { apiKey } = await deps.apiKeys.issue({ id: row.id, workspaceId: row.workspace_id }, 'first key', tx);
        return { member: memberView(row), apiKey };
      });
    },

    async get(actor: Actor, memberId: string): Promise<Member> {
      const row = await findMember(deps.db, actor.workspaceId, memberId);
      if (row === undefined) throw memberNotFound();
      return memberView(row);
    },

    async list(actor: Actor, query: PageQuery) {
      const rows = await listMembers(deps.db, actor.workspaceId, decodeCursor(query.cursor), query.limit);
      return toPage(rows, query.limit, memberView);
    },

    async me(actor: Actor) {
      const member = await findMemberInWorkspace(deps.db, actor.workspaceId, actor.memberId);
      if (member === undefined) throw memberNotFound();
      return { member: memberView(member), workspace: { id: member.workspace_id, name: member.workspace_name } };
    },
  };
}
