/**
 * @module delivery/lean/interactive
 * `interactiveDataSchemas` and the block types' `interactiveResultSchemas` (delivery/interactive.ts
 * and action-result.ts) as lean checks: the `data` of each interactive type, and the `200` result
 * each block type expects, read as the service reads them.
 */
import { LIMITS } from '../../limits/index.ts';
import { MESSAGE_ACTION_CONTEXTS, type InteractiveType } from '../constants.ts';
import { author, blockAsDelivered, contextMessage, notice, optionValue, surface } from './common.ts';
import { actionName, actionTable, blockProps, blockState, httpsUrl, id, text, typed } from './primitives.ts';
import { array, bool, closed, int, nullable, object, optional, record, refine, str, withDefault, type Check } from './check.ts';

const actionCall = object({ name: actionName, args: withDefault(record(), () => ({})) });
const invocation = { invocationId: id, interactionToken: str(1) };
const contextMessages = optional(array(contextMessage));

export const interactiveDataChecks: Record<InteractiveType, Check> = {
  'block.render': object({ block: blockAsDelivered, mode: closed(['interactive'], 'interactive') }),
  'block.action': object({
    block: blockAsDelivered,
    action: actionCall,
    input: optional(record()),
    tallies: record(record(int(0))),
    ...invocation,
  }),
  'block.insert': object({ type: str(1), props: blockProps, target: object({ conversationId: optional(id), circleId: optional(id) }) }),
  'select.search': object({ block: blockAsDelivered, action: actionCall, query: str() }),
  'reference.resolve': object({
    items: array(object({ kind: str(1), patternId: str(1), params: record(str()), url: httpsUrl }), LIMITS.references.urlsResolvedPerDelivery),
  }),
  'reference.search': object({ kind: str(1), query: str(), limit: int(1, LIMITS.references.searchResultsPerQuery) }),
  'command.run': object({ command: str(1), options: record(optionValue), surface, ...invocation }),
  'messageAction.run': object({
    id: str(1),
    message: object({ id, conversationId: nullable(id), text: str(), author }),
    context: object({
      level: closed(MESSAGE_ACTION_CONTEXTS, 'message'),
      message: contextMessage,
      thread: contextMessages,
      surrounding: contextMessages,
      conversation: optional(object({
        id, title: str(), status: nullable(str()), agreed: nullable(str()), participants: array(author), messages: array(contextMessage),
      })),
    }),
    surface,
    ...invocation,
  }),
};

const A = LIMITS.actions;

const actionResult = refine(object({
  state: optional(blockState),
  tree: optional(typed),
  actions: optional(actionTable),
  notice: optional(notice),
  fieldErrors: optional(record(text(A.fieldError, 1))),
  openUrl: optional(httpsUrl),
  final: optional(object({ summary: optional(text(A.finalSummary)) })),
  notify: optional(array(object({ memberId: id, text: text(A.notifyText, 1) }), A.notifyItems)),
  revalidate: optional(bool),
}), (result: { tree?: unknown; actions?: unknown }) => (result.tree === undefined) === (result.actions === undefined), 'Send tree and actions together', ['actions']);

/** The results of block deliveries; those of reference kinds and invocations are in interactive-pieces.ts. */
export const blockResultChecks = {
  'block.render': object({ tree: typed, actions: actionTable }),
  'block.action': actionResult,
  'block.insert': object({ state: blockState, tree: typed, actions: actionTable }),
  'select.search': object({
    options: array(object({ value: str(1), label: text(LIMITS.text.optionLabel, 1), description: optional(text(LIMITS.text.choiceDescription)) }), A.selectSearchResults),
  }),
} as const satisfies Partial<Record<InteractiveType, Check>>;
