/**
 * @module authoring/interactive
 * One interactive delivery: read `data` by its type's schema (the lean check, delivery/lean), run
 * the type's handler, then answer `200` with a checked result, or `202` for a deferral (empty for `block.action`, an
 * InvocationDeferral for commands and message actions; any other type may not defer).
 */
import { DEFERRABLE_TYPES, type InteractiveType } from '../delivery/constants.ts';
import { blockResultChecks, interactiveDataChecks, read } from '../delivery/lean/index.ts';
import type { ContextDeps, DeliveryEnvelope } from './context.ts';
import { DeliveryRejection } from './failures.ts';
import { jsonResponse } from './http.ts';
import { blockAction, blockInsert, blockRender, selectSearch } from './interactive-blocks.ts';
import { ABSENT_RUNNERS } from './absent-pieces.ts';
import { checkResult, checksTrees, okResponse, ResultProblem } from './results.ts';
import type { AppTables, Runner } from './tables.ts';

/**
 * Block deliveries, and the answers for pieces the app does not define. The runners of reference
 * kinds, commands and message actions come with their definitions (`tables.runners`), so an app
 * bundles them only when it defines such a piece.
 */
const RUNNERS: Record<InteractiveType, Runner> = {
  'block.render': { run: blockRender, result: blockResultChecks['block.render'] },
  'block.action': { run: blockAction, result: blockResultChecks['block.action'] },
  'block.insert': { run: blockInsert, result: blockResultChecks['block.insert'] },
  'select.search': { run: selectSearch, result: blockResultChecks['select.search'] },
  ...ABSENT_RUNNERS,
};

/** Names the handler a result came from, for the author reading the error. */
function labelOf(type: InteractiveType, data: Record<string, any>): string {
  switch (type) {
    case 'block.render': return `render of block ${data.block.type}`;
    case 'block.insert': return `insert of block ${data.type}`;
    case 'block.action': return `action ${data.action.name} of ${data.block.reference === undefined ? 'block' : 'reference kind'} ${data.block.type}`;
    case 'select.search': return `search ${data.action.name} of block ${data.block.type}`;
    case 'reference.resolve': return 'resolve of references';
    case 'reference.search': return `search of reference kind ${data.kind}`;
    case 'command.run': return `command ${data.command}`;
    case 'messageAction.run': return `message action ${data.id}`;
  }
}

/**
 * Handles a verified interactive delivery.
 * @example return handleInteractive(envelope, tables, deps);
 */
export async function handleInteractive(envelope: DeliveryEnvelope, type: InteractiveType, tables: AppTables, deps: ContextDeps): Promise<Response> {
  const parsed = read(interactiveDataChecks[type], envelope.data);
  if (!parsed.ok) {
    throw new DeliveryRejection(400, 'invalid-data', `The ${type} data does not match its schema at ${parsed.path.join('.') || '(root)'}: ${parsed.message}`);
  }
  const data = parsed.value as Record<string, unknown>;
  const runner = tables.runners[type] ?? RUNNERS[type];
  const answer = await runner.run({ envelope: { ...envelope, data }, type, tables, deps });
  const label = labelOf(type, data);
  if (answer.kind === 'deferred') {
    if (!(DEFERRABLE_TYPES as readonly string[]).includes(type)) {
      throw new ResultProblem('not-deferrable', `${label} deferred, but only block.action, command.run and messageAction.run may answer 202`);
    }
    return type === 'block.action' ? new Response(null, { status: 202 }) : jsonResponse({ visibility: answer.deferral.visibility }, 202);
  }
  checkResult(type, answer.body, label, runner.result, { trees: checksTrees(envelope, deps.execution) });
  return okResponse(answer.body);
}
