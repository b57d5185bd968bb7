/**
 * @module delivery/interactive
 * The 8 interactive delivery types: the `data` each carries and the `200` result each expects
 * (spec table "Interactive types"). Results are the app's HTTP answers, read by the service with
 * the lenient rules of responses; the service then checks them against the block's schemas and the
 * catalog (`validateTree`).
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { RESPONSE } from '../wire/modes.ts';
import {
  ActionNameSchema, ActionTableSchema, BlockPropsSchema, BlockStateSchema, BlockTreeSchema, HttpsUrlSchema, IdSchema, text,
} from '../wire/primitives.ts';
import {
  AuthorSchema, BlockAsDeliveredSchema, ContextMessageSchema, InvocationAnswerSchema, InvocationDeferralSchema, OptionValueSchema,
  ReferenceResolutionSchema, ReferenceStatusSchema, SurfaceSchema,
} from './common.ts';
import { ActionResultSchema } from './action-result.ts';
import { envelopeSchema } from './envelope.ts';
import { DEFERRABLE_TYPES, INTERACTIVE_TYPES, MESSAGE_ACTION_CONTEXTS, type InteractiveType } from './constants.ts';

export { INTERACTIVE_TYPES, DEFERRABLE_TYPES, type InteractiveType };

const ActionCallSchema = z.looseObject({ name: ActionNameSchema, args: z.record(z.string(), z.unknown()).default({}) });

export const ConversationContextSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  status: z.string().nullable(),
  /** Ours: the text the conversation agreed on, or null. */
  agreed: z.string().nullable(),
  participants: z.array(AuthorSchema),
  messages: z.array(ContextMessageSchema),
});

export const MessageActionContextDataSchema = z.looseObject({
  level: RESPONSE.closed(MESSAGE_ACTION_CONTEXTS, 'message'),
  message: ContextMessageSchema,
  thread: z.array(ContextMessageSchema).optional(),
  surrounding: z.array(ContextMessageSchema).optional(),
  conversation: ConversationContextSchema.optional(),
});

export const interactiveDataSchemas = {
  'block.render': z.looseObject({ block: BlockAsDeliveredSchema, mode: RESPONSE.closed(['interactive'], 'interactive') }),
  'block.action': z.looseObject({
    block: BlockAsDeliveredSchema,
    action: ActionCallSchema,
    input: z.record(z.string(), z.unknown()).optional(),
    tallies: z.record(z.string(), z.record(z.string(), z.int().min(0))),
    invocationId: IdSchema,
    interactionToken: z.string().min(1),
  }),
  'block.insert': z.looseObject({
    type: z.string().min(1),
    props: BlockPropsSchema,
    target: z.looseObject({ conversationId: IdSchema.optional(), circleId: IdSchema.optional() }),
  }),
  'select.search': z.looseObject({ block: BlockAsDeliveredSchema, action: ActionCallSchema, query: z.string() }),
  'reference.resolve': z.looseObject({
    items: z.array(z.looseObject({ kind: z.string().min(1), patternId: z.string().min(1), params: z.record(z.string(), z.string()), url: HttpsUrlSchema }))
      .max(LIMITS.references.urlsResolvedPerDelivery),
  }),
  'reference.search': z.looseObject({ kind: z.string().min(1), query: z.string(), limit: z.int().min(1).max(LIMITS.references.searchResultsPerQuery) }),
  'command.run': z.looseObject({
    command: z.string().min(1),
    options: z.record(z.string(), OptionValueSchema),
    surface: SurfaceSchema,
    invocationId: IdSchema,
    interactionToken: z.string().min(1),
  }),
  'messageAction.run': z.looseObject({
    id: z.string().min(1),
    message: z.looseObject({ id: IdSchema, conversationId: IdSchema.nullable(), text: z.string(), author: AuthorSchema }),
    context: MessageActionContextDataSchema,
    surface: SurfaceSchema,
    invocationId: IdSchema,
    interactionToken: z.string().min(1),
  }),
} as const satisfies Record<InteractiveType, z.ZodType>;

export const RenderResultSchema = z.looseObject({ tree: BlockTreeSchema, actions: ActionTableSchema });
export const InsertResultSchema = z.looseObject({ state: BlockStateSchema, tree: BlockTreeSchema, actions: ActionTableSchema });
export const SelectSearchResultSchema = z.looseObject({
  options: z.array(z.looseObject({ value: z.string().min(1), label: text(LIMITS.text.optionLabel, 1), description: text(LIMITS.text.choiceDescription).optional() }))
    .max(LIMITS.actions.selectSearchResults),
});
export const ReferenceResolveResultSchema = z.looseObject({ items: z.array(ReferenceResolutionSchema).max(LIMITS.references.urlsResolvedPerDelivery) });
export const ReferenceSearchResultSchema = z.looseObject({
  items: z.array(z.looseObject({
    url: HttpsUrlSchema,
    title: text(LIMITS.endpoints.searchTitleMax, 1),
    subtitle: text(LIMITS.endpoints.searchSubtitleMax).optional(),
    status: ReferenceStatusSchema.optional(),
  })).max(LIMITS.references.searchResultsPerQuery),
});

export const interactiveResultSchemas = {
  'block.render': RenderResultSchema,
  'block.action': ActionResultSchema,
  'block.insert': InsertResultSchema,
  'select.search': SelectSearchResultSchema,
  'reference.resolve': ReferenceResolveResultSchema,
  'reference.search': ReferenceSearchResultSchema,
  'command.run': InvocationAnswerSchema,
  'messageAction.run': InvocationAnswerSchema,
} as const satisfies Record<InteractiveType, z.ZodType>;

/** The `202` body of each deferrable type: empty for a block action, an InvocationDeferral otherwise. */
export const interactiveDeferralSchemas = {
  'block.action': z.union([z.undefined(), z.looseObject({})]),
  'command.run': InvocationDeferralSchema,
  'messageAction.run': InvocationDeferralSchema,
} as const;

/** The envelope of each interactive type. */
export const interactiveEnvelopeSchemas = {
  'block.render': envelopeSchema(z.literal('block.render'), interactiveDataSchemas['block.render']),
  'block.action': envelopeSchema(z.literal('block.action'), interactiveDataSchemas['block.action']),
  'block.insert': envelopeSchema(z.literal('block.insert'), interactiveDataSchemas['block.insert']),
  'select.search': envelopeSchema(z.literal('select.search'), interactiveDataSchemas['select.search']),
  'reference.resolve': envelopeSchema(z.literal('reference.resolve'), interactiveDataSchemas['reference.resolve']),
  'reference.search': envelopeSchema(z.literal('reference.search'), interactiveDataSchemas['reference.search']),
  'command.run': envelopeSchema(z.literal('command.run'), interactiveDataSchemas['command.run']),
  'messageAction.run': envelopeSchema(z.literal('messageAction.run'), interactiveDataSchemas['messageAction.run']),
} as const satisfies Record<InteractiveType, z.ZodType>;

/** Any interactive envelope, told apart by `type`. */
export const InteractiveEnvelopeSchema = z.discriminatedUnion('type', [
  interactiveEnvelopeSchemas['block.render'], interactiveEnvelopeSchemas['block.action'], interactiveEnvelopeSchemas['block.insert'],
  interactiveEnvelopeSchemas['select.search'], interactiveEnvelopeSchemas['reference.resolve'], interactiveEnvelopeSchemas['reference.search'],
  interactiveEnvelopeSchemas['command.run'], interactiveEnvelopeSchemas['messageAction.run'],
]);

export type InteractiveData<T extends InteractiveType> = z.infer<(typeof interactiveDataSchemas)[T]>;
export type InteractiveResult<T extends InteractiveType> = z.infer<(typeof interactiveResultSchemas)[T]>;
export type InteractiveEnvelope<T extends InteractiveType = InteractiveType> = z.infer<(typeof interactiveEnvelopeSchemas)[T]>;
