/**
 * @module workspace/decisions/schemas
 * Wire shapes of decisions: a circle's record of what was decided, optionally tied to the
 * conversation it came from. Publishing one and changing it are the causes of
 * `decision.published` and `decision.updated`.
 */
import { z } from 'zod';
import { Id, Timestamp, page, visibleText } from '../../core/http/common.ts';

export const DECISION_LIMITS = { title: 200, text: 10_000 } as const;

export const Decision = z.object({
  id: Id,
  circleId: Id,
  conversationId: Id.nullable(),
  title: z.string(),
  text: z.string(),
  version: z.number().int().describe('Counts changes: 1 when published'),
  createdBy: Id.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).meta({ id: 'Decision' });
export type Decision = z.output<typeof Decision>;

export const PublishDecisionBody = z.strictObject({
  title: visibleText(DECISION_LIMITS.title),
  text: visibleText(DECISION_LIMITS.text),
  conversationId: Id.optional().describe('The conversation of the same circle the decision came from'),
});

export const UpdateDecisionBody = z
  .strictObject({ title: visibleText(DECISION_LIMITS.title).optional(), text: visibleText(DECISION_LIMITS.text).optional() })
  .refine((v) => v.title !== undefined || v.text !== undefined, 'Send at least one of title and text');

export const DecisionResponse = z.object({ decision: Decision });
export const DecisionPage = page(Decision);
