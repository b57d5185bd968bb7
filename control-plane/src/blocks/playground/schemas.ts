/**
 * @module blocks/playground/schemas
 * The request of a tree tried against a development install (ours: the spec leaves the author's
 * loop to the service). The tree and its action table are checked by the catalog, not here.
 */
import { z } from 'zod';
import { Id } from '../../core/http/common.ts';
import { BlockView } from '../interactions/schemas.ts';

const one = (v: Record<string, unknown>, keys: readonly string[]) => keys.filter((k) => v[k] !== undefined).length === 1;

export const PlaygroundBlockRequest = z.strictObject({
  type: z.string().min(1).max(64).describe('A block type of the version the dev install runs: its actions answer the clicks'),
  props: z.record(z.string(), z.unknown()).default({})
    .describe('Checked against the type\'s props schema (at most 16 KB); properties left out start at the schema\'s `default`s'),
  state: z.record(z.string(), z.unknown()).default({})
    .describe('The first state, checked against the type\'s state schema (at most 64 KB); properties left out start at the schema\'s `default`s'),
  tree: z.unknown().describe('A catalog tree, checked like every tree an app sends'),
  actions: z.record(z.string(), z.unknown()).default({}).describe('The action table: references of the tree to `{ name, args? }`, each name an action of the type'),
  target: z.strictObject({ conversationId: Id.optional(), circleId: Id.optional() })
    .refine((t) => one(t, ['conversationId', 'circleId']), 'Send exactly one of conversationId and circleId'),
});
export type PlaygroundBlockRequest = z.output<typeof PlaygroundBlockRequest>;

/** The block as the developer sees it, and the props and state stored (the schemas' defaults filled in). */
export const PlaygroundBlockResponse = z.object({
  block: BlockView,
  props: z.record(z.string(), z.unknown()).describe('The props stored: what was sent, with the schema\'s `default`s where it left a property out'),
  state: z.record(z.string(), z.unknown()).describe('The first state stored, with the schema\'s `default`s where it left a property out'),
});
