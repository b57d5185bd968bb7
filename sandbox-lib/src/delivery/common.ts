/**
 * @module delivery/common
 * Shapes shared by deliveries, their answers and some `/v0` bodies: notices, surfaces, option
 * values, messages and authors, invocation answers, reference resolutions, blocks as delivered.
 * Built per reading mode (`wire/modes.ts`): strict where they are a `/v0` request body, lenient
 * where they are read from the other side's response.
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { REQUEST, RESPONSE, type Wire } from '../wire/modes.ts';
import {
  ActionTableSchema, BlockPropsSchema, BlockStateSchema, BlockTreeSchema, DocumentSchema, HttpsUrlSchema, IdSchema,
  TimestampSchema, VersionSchema, text,
} from '../wire/primitives.ts';
import { NOTICE_TONES, REFERENCE_ACCESS, VISIBILITIES, type NoticeTone } from './constants.ts';

export { NOTICE_TONES, VISIBILITIES, REFERENCE_ACCESS, type NoticeTone };

export const notice = (w: Wire) => w.object({ tone: w.closed(NOTICE_TONES, 'neutral'), text: text(LIMITS.actions.notice, 1) });
export const NoticeSchema = notice(RESPONSE);

export const SurfaceSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('circle'), circleId: IdSchema, conversationId: IdSchema.nullable() }),
  z.looseObject({ kind: z.literal('dm'), partnerMemberId: IdSchema }),
]);

export const OptionValueSchema = z.union([
  z.string(), z.number(), z.boolean(),
  z.looseObject({ kind: z.literal('member'), memberId: IdSchema, name: z.string() }),
  z.looseObject({ kind: z.literal('circle'), circleId: IdSchema, name: z.string() }),
  z.looseObject({ kind: z.literal('appObject'), id: z.string().min(1), title: z.string() }),
]);

/** The member (or app) who wrote a message. Ours: the spec does not show `EventAuthor`. */
export const AuthorSchema = z.looseObject({ kind: RESPONSE.closed(['member', 'app'], 'member'), id: IdSchema, name: z.string() });

/** The member who caused a delivery. */
export const ActorSchema = z.looseObject({ memberId: IdSchema, name: z.string() });

export const ContextMessageSchema = z.looseObject({ id: IdSchema, text: z.string(), author: AuthorSchema, createdAt: TimestampSchema });

/** The answer to a command or message action; an unknown visibility reads as `private` (shown to fewer). */
export const invocationAnswer = (w: Wire) => w.object({
  visibility: w.closed(VISIBILITIES, 'private'),
  content: DocumentSchema.optional(),
  block: w.object({ type: z.string().min(1), props: BlockPropsSchema }).optional(),
  notice: notice(w).optional(),
});
export const InvocationAnswerSchema = invocationAnswer(RESPONSE);
export const InvocationAnswerRequestSchema = invocationAnswer(REQUEST);

export const invocationDeferral = (w: Wire) => w.object({ visibility: w.closed(VISIBILITIES, 'private') });
export const InvocationDeferralSchema = invocationDeferral(RESPONSE);

export const ReferenceStatusSchema = z.looseObject({ state: z.string().min(1).max(64), label: text(LIMITS.text.statusLabel, 1) });

/** A render for a reference: a tree and its action table. */
export const TreeWithActionsSchema = z.looseObject({ tree: BlockTreeSchema, actions: ActionTableSchema });

const granted = z.looseObject({
  url: HttpsUrlSchema,
  access: z.literal('granted'),
  visibility: RESPONSE.closed(['public', 'restricted'], 'restricted'),
  externalId: z.string().min(1).max(LIMITS.endpoints.searchExternalIdMax),
  title: text(LIMITS.endpoints.searchTitleMax, 1),
  subtitle: text(LIMITS.endpoints.searchSubtitleMax).optional(),
  icon: z.string().min(1).max(LIMITS.references.urlLength).optional(),
  status: ReferenceStatusSchema.optional(),
  updatedAt: TimestampSchema.optional(),
  summary: text(LIMITS.blockTree.summary),
  block: TreeWithActionsSchema.optional(),
});

/** A reference resolution; an unknown `access` reads as `unavailable` (not cached, resolved again later). */
export const ReferenceResolutionSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const access = (value as { access?: unknown }).access;
    return typeof access === 'string' && !(REFERENCE_ACCESS as readonly string[]).includes(access) ? { ...value, access: 'unavailable' } : value;
  },
  z.discriminatedUnion('access', [
    granted,
    z.looseObject({ url: z.string(), access: z.enum(['unauthorized', 'forbidden', 'notFound']) }),
    z.looseObject({ url: z.string(), access: z.literal('unavailable') }),
  ]),
);

export const BlockAsDeliveredSchema = z.looseObject({
  id: IdSchema,
  type: z.string().min(1),
  props: BlockPropsSchema,
  state: BlockStateSchema,
  revision: z.int().min(0),
  version: VersionSchema,
});

export type Notice = z.infer<typeof NoticeSchema>;
export type Surface = z.infer<typeof SurfaceSchema>;
export type OptionValue = z.infer<typeof OptionValueSchema>;
export type Author = z.infer<typeof AuthorSchema>;
export type Actor = z.infer<typeof ActorSchema>;
export type ContextMessage = z.infer<typeof ContextMessageSchema>;
export type InvocationAnswer = z.infer<typeof InvocationAnswerSchema>;
export type InvocationDeferral = z.infer<typeof InvocationDeferralSchema>;
export type ReferenceResolution = z.infer<typeof ReferenceResolutionSchema>;
export type BlockAsDelivered = z.infer<typeof BlockAsDeliveredSchema>;
