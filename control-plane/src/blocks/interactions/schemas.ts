/**
 * @module blocks/interactions/schemas
 * Wire shapes of the member's side of blocks (client API): the block as a member sees it (tree,
 * revision, summary, pending or final, inline error, viewer inputs; never the action table), and
 * the requests of a click, a form submission, a field change and a search-select query.
 */
import { z } from 'zod';
import { COUNTER_MAX, LIMITS, NOTICE_TONES } from '@platform/sdk';
import { Id, Timestamp } from '../../core/http/common.ts';
import { LinkCard } from '../../messaging/references/view.ts';

const Ref = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/).describe('An action reference of the current revision (`a0`, …)');
const Revision = z.int().min(1).max(COUNTER_MAX).describe('The revision of the tree the member acted on');
const FieldName = z.string().regex(LIMITS.identifiers.inputName);

export const InputView = z.object({
  values: z.array(z.string()),
  multiple: z.boolean(),
  anonymous: z.boolean(),
  mine: z.array(z.string()).describe('Your own pick'),
  tallies: z.record(z.string(), z.int().min(0)),
  voters: z.record(z.string(), z.array(z.object({ memberId: Id, name: z.string() }))).optional()
    .describe('Who picked each value (the latest 50); never present for anonymous inputs'),
});

export const BlockView = z.object({
  id: Id,
  type: z.string(),
  app: z.object({ id: Id, slug: z.string(), name: z.string(), icon: z.string().nullable().describe('The app\'s icon, an asset id served at `/assets/{id}`; null: none') }),
  messageId: Id.nullable(),
  circleId: Id.nullable(),
  conversationId: Id.nullable(),
  revision: z.int().min(1),
  version: z.int().min(1),
  summary: z.string(),
  tree: z.record(z.string(), z.unknown()).describe('The block UI document (catalog 1), without the parts whose audience leaves you out'),
  final: z.object({ summary: z.string(), at: Timestamp }).nullable(),
  pending: z.object({ ref: z.string(), since: Timestamp, until: Timestamp }).nullable()
    .describe('A deferred action: the control with this reference shows pending until the app finishes or `until` passes'),
  error: z.object({ message: z.string(), at: Timestamp }).nullable().describe('The inline error shown beside the last good tree'),
  openLink: z.object({ url: z.string(), host: z.string() }).nullable().describe('The last link an action of yours asked to open'),
  inputs: z.record(z.string(), InputView).describe('Viewer inputs (the block type\'s choice inputs) with their tallies'),
  updatedAt: Timestamp,
});
export type BlockView = z.output<typeof BlockView>;

export const BlockViewResponse = z.object({ block: BlockView });

export const ActionOutcomeResponse = z.object({
  outcome: z.enum(['applied', 'pending', 'failed']),
  block: BlockView,
  notice: z.object({ tone: z.enum(NOTICE_TONES), text: z.string() }).nullable(),
  fieldErrors: z.record(z.string(), z.string()).nullable(),
  openUrl: z.string().nullable().describe('Open once for the acting member (best effort)'),
  error: z.object({ message: z.string() }).nullable(),
});
export type ActionOutcome = z.output<typeof ActionOutcomeResponse>;

export const ReferenceActionOutcomeResponse = z.object({
  outcome: z.enum(['applied', 'pending', 'failed']).describe('`pending`: the app answers later (it pushes the card\'s new fields); `failed`: the card stays as it was, with `error`'),
  card: LinkCard.describe('The card as it is now'),
  notice: ActionOutcomeResponse.shape.notice,
  fieldErrors: ActionOutcomeResponse.shape.fieldErrors,
  openUrl: ActionOutcomeResponse.shape.openUrl,
  error: ActionOutcomeResponse.shape.error,
});
export type ReferenceActionOutcome = z.output<typeof ReferenceActionOutcomeResponse>;

export const ReferenceClickRequest = z.strictObject({
  revision: z.int().min(1).describe('The `reference.revision` of the card the member acted on'),
  ref: Ref,
  confirmed: z.boolean().optional().describe('Required (true) for a destructive button, once the member confirmed the tree\'s `confirm`'),
});

export const ClickRequest = z.strictObject({
  revision: Revision,
  ref: Ref,
  confirmed: z.boolean().optional().describe('Required (true) for a destructive action, once the member confirmed the tree\'s `confirm`'),
});

const FieldValue = z.union([z.string().max(LIMITS.text.textInputValue * 4), z.boolean(), z.array(z.string().max(200)).max(LIMITS.blockTree.valuesPerChoiceInput), z.null()]);

export const SubmitRequest = z.strictObject({
  revision: Revision,
  ref: Ref.describe('The submit button\'s reference'),
  values: z.record(FieldName, FieldValue).describe('The form\'s fields by name (at most 16 KB as JSON)'),
  confirmed: z.boolean().optional(),
});

export const ChangeRequest = z.strictObject({
  revision: Revision,
  name: FieldName.describe('The field (ChoiceGroup, Select or Toggle) whose value changed'),
  value: FieldValue.describe('A choice value, a list of them for `multiple`, true/false for a toggle, null to clear'),
});

export const SearchRequest = z.strictObject({
  revision: Revision,
  name: FieldName.describe('The search select\'s field name'),
  query: z.string().max(200),
});

export const SearchResponse = z.object({
  options: z.array(z.object({ value: z.string(), label: z.string(), description: z.string().optional() })).max(LIMITS.actions.selectSearchResults),
  error: z.object({ message: z.string() }).nullable(),
});
