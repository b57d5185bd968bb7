/**
 * @module api/blocks
 * Block endpoints. Spec shape: `PATCH /v0/blocks` (update by state). Ours (the spec names them
 * without shapes): insert, read, update (shallow merge), replace, query and revalidate.
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { BlockTypeSchema } from '../manifest/model/schemas.ts';
import { BlockPropsSchema, BlockStateSchema, CountedSchema, IdSchema, TimestampSchema, VersionSchema } from '../wire/primitives.ts';
import { ONE_TARGET, StateMatchSchema, hasOneTarget, targetFields } from './targets.ts';

const E = LIMITS.endpoints;

/** `PATCH /v0/blocks`: shallow-merge `state` into every matching, non-final block of `type`. */
export const BlocksUpdateByStateRequestSchema = z.strictObject({ type: BlockTypeSchema, stateMatch: StateMatchSchema, state: BlockStateSchema });
export const BlocksUpdateByStateResponseSchema = z.looseObject({ updatedCount: z.int().min(0) });

/** `POST /v0/blocks`: insert a block into exactly one of a conversation, a reply's place or a circle. */
export const BlockInsertRequestSchema = z.strictObject({ type: BlockTypeSchema, props: BlockPropsSchema, ...targetFields }).refine(hasOneTarget, ONE_TARGET);

/** A block as the API answers it: the delivered shape plus where it is and whether it is final. */
export const BlockRecordSchema = z.looseObject({
  id: IdSchema,
  type: z.string().min(1),
  props: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()),
  revision: z.int().min(0),
  version: VersionSchema,
  final: z.boolean(),
  circleId: IdSchema.nullable(),
  conversationId: IdSchema.nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});

/** `PATCH /v0/blocks/{block_id}`: shallow-merge `state`; with `expectedVersion`, only if the block is at that version. */
export const BlockUpdateRequestSchema = z.strictObject({ state: BlockStateSchema, expectedVersion: CountedSchema.optional() });
/** `PUT /v0/blocks/{block_id}` (the replace variant): `state` replaces the whole state. */
export const BlockReplaceRequestSchema = BlockUpdateRequestSchema;

/** `POST /v0/blocks/query`: the install's blocks, newest first, paged by an opaque cursor. */
export const BlockQueryRequestSchema = z.strictObject({
  type: BlockTypeSchema.optional(),
  stateMatch: StateMatchSchema.optional(),
  cursor: z.string().min(1).max(1_000).optional(),
  limit: z.int().min(1).max(E.blockQueryLimitMax).default(E.blockQueryLimitDefault),
});
export const BlockQueryResponseSchema = z.looseObject({ items: z.array(BlockRecordSchema), nextCursor: z.string().nullable() });

/** `POST /v0/blocks/{block_id}/revalidate`: the service sends `block.render` soon. */
export const BlockRevalidateRequestSchema = z.strictObject({});
export const ScheduledResponseSchema = z.looseObject({ scheduled: z.boolean() });

export type BlockRecord = z.infer<typeof BlockRecordSchema>;
export type BlockInsertRequest = z.input<typeof BlockInsertRequestSchema>;
export type BlockQueryRequest = z.input<typeof BlockQueryRequestSchema>;
