/**
 * @module api/streams
 * `POST /v0/streams/events` (spec shape).
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { DocumentSchema, HttpsUrlSchema, IdSchema, nameLabel, text } from '../wire/primitives.ts';

const E = LIMITS.endpoints;

export const StreamEventRequestSchema = z.strictObject({
  circleId: IdSchema,
  content: DocumentSchema.optional(),
  markdown: text(E.streamMarkdownMax, 1).optional(),
  threadKey: z.string().min(1).max(E.streamThreadKeyMax).optional(),
  title: text(E.streamTitleMax).optional(),
  persona: z.strictObject({ name: nameLabel(E.personaNameMax).optional(), avatarUrl: HttpsUrlSchema.optional() }).optional(),
  idempotencyKey: z.string().min(1).max(E.idempotencyKeyMax).optional(),
}).refine((body) => (body.content === undefined) !== (body.markdown === undefined), { message: 'Give exactly one of content and markdown', path: [] });

export const StreamEventResponseSchema = z.looseObject({ conversationId: IdSchema, url: z.string().min(1), created: z.boolean() });

export type StreamEventRequest = z.input<typeof StreamEventRequestSchema>;
export type StreamEventResponse = z.infer<typeof StreamEventResponseSchema>;
