/**
 * @module workspace/members/schemas
 * Wire shapes of members.
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, nameText, page } from '../../core/http/common.ts';
import { ROLES } from '../../core/auth/actor.ts';

export const Role = z.enum(ROLES);

export const Member = z.object({ id: Id, workspaceId: Id, name: z.string(), role: Role, createdAt: Timestamp }).meta({ id: 'Member' });
export type Member = z.output<typeof Member>;

export const CreateMemberBody = z.strictObject({ name: nameText(CLIENT_LIMITS.memberName), role: Role });
export const CreateMemberResponse = z.object({ member: Member, apiKey: z.string().describe('Shown once; store it now') });
export const MemberResponse = z.object({ member: Member });
export const MemberPage = page(Member);
export const MeResponse = z.object({ member: Member, workspace: z.object({ id: Id, name: z.string() }) });
