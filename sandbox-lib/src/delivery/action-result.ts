/**
 * @module delivery/action-result
 * `ActionResult`, the answer to `block.action` (all fields optional). `tree` and `actions` come
 * together. For an action with hint `readOnly` the service ignores `state`, `tree`, `actions`,
 * `final` and `notify`; that is the service's job, not the schema's.
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { ActionTableSchema, BlockStateSchema, BlockTreeSchema, HttpsUrlSchema, IdSchema, text } from '../wire/primitives.ts';
import { NoticeSchema } from './common.ts';

const A = LIMITS.actions;

export const ActionResultSchema = z.looseObject({
  state: BlockStateSchema.optional(),
  tree: BlockTreeSchema.optional(),
  actions: ActionTableSchema.optional(),
  notice: NoticeSchema.optional(),
  fieldErrors: z.record(z.string(), text(A.fieldError, 1)).optional(),
  openUrl: HttpsUrlSchema.optional(),
  final: z.looseObject({ summary: text(A.finalSummary).optional() }).optional(),
  notify: z.array(z.looseObject({ memberId: IdSchema, text: text(A.notifyText, 1) })).max(A.notifyItems).optional(),
  revalidate: z.boolean().optional(),
}).refine((result) => (result.tree === undefined) === (result.actions === undefined), {
  message: 'Send tree and actions together',
  path: ['actions'],
});

export type ActionResult = z.infer<typeof ActionResultSchema>;
