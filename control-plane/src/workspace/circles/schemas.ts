/**
 * @module workspace/circles/schemas
 * Wire shapes of circles, their members and app invitations.
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, nameText, page } from '../../core/http/common.ts';

export const Visibility = z.enum(['public', 'private']);

export const Circle = z
  .object({
    id: Id,
    workspaceId: Id,
    name: z.string(),
    visibility: Visibility,
    chat: z.boolean().describe('Members can post chat messages that are not filed in a conversation'),
    connected: z.boolean().describe('Shared with another workspace (apps never reach it)'),
    connectedWorkspaceId: Id.nullable(),
    readOnly: z.boolean().describe('The connection ended: nothing can be posted any more'),
    isMember: z.boolean().describe('The caller is a member of the circle'),
    createdAt: Timestamp,
  })
  .meta({ id: 'Circle' });
export type Circle = z.output<typeof Circle>;

export const CreateCircleBody = z.strictObject({
  name: nameText(CLIENT_LIMITS.circleName),
  visibility: Visibility,
  chat: z.boolean().optional(),
});
export const ConnectCircleBody = z.strictObject({ workspaceId: Id });

export const CircleResponse = z.object({ circle: Circle });
export const CirclePage = page(Circle);

export const AppInvitation = z.object({ circleId: Id, appId: z.string(), invitedBy: Id.nullable(), createdAt: Timestamp }).meta({ id: 'AppInvitation' });
export const AppInvitationList = z.object({ items: z.array(AppInvitation) });
export const AppInvitationResponse = z.object({ invitation: AppInvitation });
