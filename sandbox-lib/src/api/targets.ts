/**
 * @module api/targets
 * Request pieces several endpoints share: where a message or block goes, and `stateMatch`.
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { IdSchema } from '../wire/primitives.ts';

const TARGET_KEYS = ['conversationId', 'replyTo', 'circleId'] as const;

/** Fields naming where something is posted; a body must hold exactly one of them. */
export const targetFields = {
  conversationId: IdSchema.optional(),
  replyTo: IdSchema.optional(),
  circleId: IdSchema.optional(),
};

/** True when exactly one of `conversationId`, `replyTo`, `circleId` is given. */
export const hasOneTarget = (body: Partial<Record<(typeof TARGET_KEYS)[number], unknown>>): boolean =>
  TARGET_KEYS.filter((key) => body[key] !== undefined).length === 1;

export const ONE_TARGET = { message: 'Give exactly one of conversationId, replyTo and circleId', path: [] as string[] };

/** Up to 8 top-level state keys with scalar values. */
export const StateMatchSchema = z.record(z.string().min(1).max(200), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .refine((match) => Object.keys(match).length <= LIMITS.endpoints.bulkStateMatchKeys, `At most ${LIMITS.endpoints.bulkStateMatchKeys} keys`);
