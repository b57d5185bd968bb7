/**
 * @module workspace/conversations/schemas
 * Wire shapes of conversations. `status` is free text the workspace uses (null when unset);
 * `agreed` records whether the conversation reached agreement (null: not decided).
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, page, visibleText } from '../../core/http/common.ts';

export const Conversation = z
  .object({
    id: Id,
    circleId: Id,
    title: z.string(),
    status: z.string().nullable(),
    agreed: z.boolean().nullable(),
    createdBy: Id.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Conversation' });
export type Conversation = z.output<typeof Conversation>;

const Title = visibleText(CLIENT_LIMITS.conversationTitle);
const Status = visibleText(CLIENT_LIMITS.conversationStatus).nullable();

export const CreateConversationBody = z.strictObject({ title: Title, status: Status.optional(), agreed: z.boolean().nullable().optional() });

export const UpdateConversationBody = z
  .strictObject({ title: Title.optional(), status: Status.optional(), agreed: z.boolean().nullable().optional() })
  .refine((v) => v.title !== undefined || v.status !== undefined || v.agreed !== undefined, 'Send at least one of title, status and agreed');

export const ConversationResponse = z.object({ conversation: Conversation });
export const ConversationPage = page(Conversation);
