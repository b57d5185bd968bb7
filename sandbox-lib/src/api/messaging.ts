/**
 * @module api/messaging
 * What an app says in the workspace (all shapes ours; the spec names the endpoints and some fields):
 * `POST /v0/replies`, `POST /v0/notifications`, `POST /v0/memories`, `POST /v0/invocations/respond`.
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { InvocationAnswerRequestSchema } from '../delivery/common.ts';
import { DocumentSchema, HttpsUrlSchema, IdSchema, TimestampSchema, text } from '../wire/primitives.ts';
import { ONE_TARGET, hasOneTarget, targetFields } from './targets.ts';

const E = LIMITS.endpoints;

export const ReplyRequestSchema = z.strictObject({ content: DocumentSchema, ...targetFields }).refine(hasOneTarget, ONE_TARGET);
/** `conversationId` is null for a chat message not filed in a conversation. */
export const ReplyResponseSchema = z.looseObject({ id: IdSchema, circleId: IdSchema, conversationId: IdSchema.nullable() });

export const NotificationRequestSchema = z.strictObject({ memberId: IdSchema, text: text(E.notificationTextMax, 1), url: HttpsUrlSchema.optional() });
export const NotificationResponseSchema = z.looseObject({ id: IdSchema });

export const MemoryRequestSchema = z.strictObject({ text: text(E.memoryTextMax, 1), title: text(E.memoryTitleMax).optional() });
export const MemoryResponseSchema = z.looseObject({ id: IdSchema, createdAt: TimestampSchema });

export const InvocationRespondRequestSchema = z.strictObject({ interactionToken: z.string().min(1).max(4_096), answer: InvocationAnswerRequestSchema });
export const InvocationRespondResponseSchema = z.looseObject({ ok: z.boolean() });

export type ReplyRequest = z.input<typeof ReplyRequestSchema>;
export type NotificationRequest = z.input<typeof NotificationRequestSchema>;
export type MemoryRequest = z.input<typeof MemoryRequestSchema>;
export type InvocationRespondRequest = z.input<typeof InvocationRespondRequestSchema>;
