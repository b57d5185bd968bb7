/**
 * @module workspace/workspaces/service
 * Creating a workspace: the workspace, its owner and the owner's first API key, in one transaction.
 */
import type { ApiKeysService } from '../api-keys/service.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import { memberView } from '../members/service.ts';
import type { Member } from '../members/schemas.ts';
import { insertMember } from '../members/store.ts';
import { iso } from '../../core/http/common.ts';
import type { Workspace } from './schemas.ts';
import { insertWorkspace } from './store.ts';

export interface CreatedWorkspace {
  workspace: Workspace;
  owner: Member;
  apiKey: string;
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;

export function createWorkspacesService(deps: { db: Db; clock: Clock; apiKeys: ApiKeysService }) {
  return {
    /**
     * @example
     * const { workspace, owner, apiKey } = await workspaces.create({ name: 'Acme', ownerName: 'Ada' });
     */
    async create(input: { name: string; ownerName: string }, db: Db = deps.db): Promise<CreatedWorkspace> {
      return db.transaction(async (tx) => {
        const at = new Date(deps.clock.now());
        const workspace = { id: newId('workspace'), name: input.name, created_at: at };
        const owner = { id: newId('member'), workspace_id: workspace.id, name: input.ownerName, role: 'owner' as const, created_at: at };
        await insertWorkspace(tx, workspace);
        await insertMember(tx, owner);
        const { apiKey } = await deps.apiKeys.issue({ id: owner.id, workspaceId: workspace.id }, 'first key', tx);
        return { workspace: { id: workspace.id, name: workspace.name, createdAt: iso(at) }, owner: memberView(owner), apiKey };
      });
    },
  };
}
