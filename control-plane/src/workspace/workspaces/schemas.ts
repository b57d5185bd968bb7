/**
 * @module workspace/workspaces/schemas
 * Wire shapes of workspaces.
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, nameText } from '../../core/http/common.ts';
import { Member } from '../members/schemas.ts';

export const Workspace = z.object({ id: Id, name: z.string(), createdAt: Timestamp }).meta({ id: 'Workspace' });
export type Workspace = z.output<typeof Workspace>;

export const CreateWorkspaceBody = z.strictObject({
  name: nameText(CLIENT_LIMITS.workspaceName),
  owner: z.strictObject({ name: nameText(CLIENT_LIMITS.memberName) }),
});

export const CreateWorkspaceResponse = z.object({
  workspace: Workspace,
  owner: Member,
  apiKey: z.string().describe("The owner's API key; shown once"),
});
