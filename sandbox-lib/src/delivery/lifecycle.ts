/**
 * @module delivery/lifecycle
 * Lifecycle deliveries: the envelope with `type` an event name. The spec does not show payloads;
 * these are ours (docs/decisions/contract.md): each names its subject object, and every subject
 * carries `version` so an app can ignore a delivery older than one it already processed.
 * Read leniently: an event type the app does not know still parses (with `data` as an object),
 * so an older SDK acknowledges new events instead of failing them into retries.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema, VersionSchema } from '../wire/primitives.ts';
import { RESPONSE } from '../wire/modes.ts';
import type { EventType } from '../events/index.ts';
import { AuthorSchema, BlockAsDeliveredSchema } from './common.ts';
import { envelopeSchema, INSTALL_KINDS } from './envelope.ts';

const MessageSubjectSchema = z.looseObject({
  id: IdSchema,
  circleId: IdSchema,
  conversationId: IdSchema.nullable(),
  text: z.string(),
  author: AuthorSchema,
  createdAt: TimestampSchema,
  version: VersionSchema,
});
const ReferenceSubjectSchema = z.looseObject({
  kind: z.string().min(1),
  externalId: z.string().nullable(),
  url: z.string().min(1),
  messageId: IdSchema,
  circleId: IdSchema,
  conversationId: IdSchema.nullable(),
  version: VersionSchema,
});
const ConversationSubjectSchema = z.looseObject({
  id: IdSchema,
  circleId: IdSchema,
  title: z.string(),
  status: z.string().nullable(),
  agreed: z.string().nullable(),
  version: VersionSchema,
});
const DecisionSubjectSchema = z.looseObject({
  id: IdSchema,
  circleId: IdSchema,
  conversationId: IdSchema.nullable(),
  title: z.string(),
  text: z.string(),
  version: VersionSchema,
});
const InstallSubjectSchema = z.looseObject({ id: IdSchema, workspaceId: IdSchema, kind: RESPONSE.closed(INSTALL_KINDS, 'workspace'), version: VersionSchema });
const PlacedBlockSchema = BlockAsDeliveredSchema.extend({ circleId: IdSchema.nullable(), conversationId: IdSchema.nullable() });

export const eventDataSchemas = {
  'post.created': z.looseObject({ post: MessageSubjectSchema }),
  'reply.created': z.looseObject({ reply: MessageSubjectSchema.extend({ replyTo: IdSchema }) }),
  'app.mentioned': z.looseObject({ message: MessageSubjectSchema }),
  'reference.created': z.looseObject({ reference: ReferenceSubjectSchema }),
  'reference.removed': z.looseObject({ reference: ReferenceSubjectSchema }),
  'message.filed': z.looseObject({ message: MessageSubjectSchema }),
  'conversation.updated': z.looseObject({ conversation: ConversationSubjectSchema }),
  'conversation.agreed': z.looseObject({ conversation: ConversationSubjectSchema }),
  'decision.published': z.looseObject({ decision: DecisionSubjectSchema }),
  'decision.updated': z.looseObject({ decision: DecisionSubjectSchema }),
  'call.recapReady': z.looseObject({
    call: z.looseObject({ id: IdSchema, circleId: IdSchema, title: z.string(), recap: z.string(), participants: z.array(AuthorSchema), version: VersionSchema }),
  }),
  'app.installed': z.looseObject({ install: InstallSubjectSchema }),
  'app.uninstalled': z.looseObject({ install: InstallSubjectSchema }),
  'app.reconsentRequired': z.looseObject({
    install: InstallSubjectSchema,
    currentVersion: z.int().min(1),
    pendingVersion: z.int().min(1),
    added: z.array(z.looseObject({ kind: z.string(), detail: z.string() })),
  }),
  'block.created': z.looseObject({ block: PlacedBlockSchema }),
  'block.removed': z.looseObject({ block: PlacedBlockSchema }),
} as const satisfies Record<EventType, z.ZodType>;

/** Any lifecycle envelope; `data` is checked per type with `lifecycleEnvelopeSchemas`. */
export const LifecycleEnvelopeSchema = envelopeSchema(z.string().min(1), z.record(z.string(), z.unknown()));

export const lifecycleEnvelopeSchemas = {
  'post.created': envelopeSchema(z.literal('post.created'), eventDataSchemas['post.created']),
  'reply.created': envelopeSchema(z.literal('reply.created'), eventDataSchemas['reply.created']),
  'app.mentioned': envelopeSchema(z.literal('app.mentioned'), eventDataSchemas['app.mentioned']),
  'reference.created': envelopeSchema(z.literal('reference.created'), eventDataSchemas['reference.created']),
  'reference.removed': envelopeSchema(z.literal('reference.removed'), eventDataSchemas['reference.removed']),
  'message.filed': envelopeSchema(z.literal('message.filed'), eventDataSchemas['message.filed']),
  'conversation.updated': envelopeSchema(z.literal('conversation.updated'), eventDataSchemas['conversation.updated']),
  'conversation.agreed': envelopeSchema(z.literal('conversation.agreed'), eventDataSchemas['conversation.agreed']),
  'decision.published': envelopeSchema(z.literal('decision.published'), eventDataSchemas['decision.published']),
  'decision.updated': envelopeSchema(z.literal('decision.updated'), eventDataSchemas['decision.updated']),
  'call.recapReady': envelopeSchema(z.literal('call.recapReady'), eventDataSchemas['call.recapReady']),
  'app.installed': envelopeSchema(z.literal('app.installed'), eventDataSchemas['app.installed']),
  'app.uninstalled': envelopeSchema(z.literal('app.uninstalled'), eventDataSchemas['app.uninstalled']),
  'app.reconsentRequired': envelopeSchema(z.literal('app.reconsentRequired'), eventDataSchemas['app.reconsentRequired']),
  'block.created': envelopeSchema(z.literal('block.created'), eventDataSchemas['block.created']),
  'block.removed': envelopeSchema(z.literal('block.removed'), eventDataSchemas['block.removed']),
} as const satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;
export type LifecycleEnvelope<T extends EventType = EventType> = z.infer<(typeof lifecycleEnvelopeSchemas)[T]>;
