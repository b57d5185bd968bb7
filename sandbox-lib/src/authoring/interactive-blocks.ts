/**
 * @module authoring/interactive-blocks
 * `block.render`, `block.action`, `block.insert` and `select.search`: find the block type and
 * action, read props, state, args and input with the block's schemas, run the handler, and turn
 * what it returns into the type's `200` answer (drafts rendered, state re-rendered), or a `202`.
 */
import type { InteractiveData, BlockAsDelivered } from '../delivery/index.ts';
import type { RenderedTree } from '../catalog/index.ts';
import type { BlockHandlers, RenderContext } from './block.ts';
import type { ActionContext, ActionOutput, SearchOutput } from './action.ts';
import { extendContext, handlerContext, lazyClient, queueSender, waitUntilOf, type HandlerContext } from './context.ts';
import { deferred, isDeferred, type Deferred } from './deferred.ts';
import { callHandler, DeliveryRejection } from './failures.ts';
import { ResultProblem, toRendered } from './results.ts';
import { parseWith } from './schema.ts';
import type { BlockAnswer, InteractiveRun } from './tables.ts';


type Json = Record<string, unknown>;

function blockOf(run: InteractiveRun, type: string): BlockHandlers {
  const block = run.tables.blocks.get(type);
  if (!block) throw new DeliveryRejection(404, 'unknown-block-type', `This app version has no block type "${type.slice(0, 100)}"`);
  return block;
}

/** Props and state read by the block's schemas; a stored value that no longer fits is the author's to fix. */
function readView(block: BlockHandlers, delivered: BlockAsDelivered): { props: unknown; state: unknown } {
  const props = parseWith(block.props, delivered.props);
  if (!props.ok) throw new ResultProblem('props-mismatch', `The props of block ${delivered.id} do not match the props schema at ${props.path.join('.') || '(root)'}: ${props.message}`, ['props', ...props.path]);
  const state = parseWith(block.state, delivered.state);
  if (!state.ok) throw new ResultProblem('state-mismatch', `The state of block ${delivered.id} does not match the state schema at ${state.path.join('.') || '(root)'}: ${state.message}`, ['state', ...state.path]);
  return { props: props.value, state: state.value };
}

/** A state a handler produced, read by the state schema (defaults applied, unknown keys dropped as zod does). */
function readState(block: BlockHandlers, state: unknown, label: string): unknown {
  const parsed = parseWith(block.state, state);
  if (!parsed.ok) throw new ResultProblem('invalid-result', `${label} returned a state that does not match the state schema at ${['state', ...parsed.path].join('.')}: ${parsed.message}`, ['state', ...parsed.path]);
  return parsed.value;
}

async function renderWith(run: InteractiveRun, block: BlockHandlers, view: { block: BlockAsDelivered; props: unknown; state: unknown }): Promise<RenderedTree> {
  const ctx: RenderContext<any, any> = extendContext(handlerContext(run.envelope, run.deps), { ...view, mode: 'interactive' as const });
  const output = await callHandler(`render of block ${view.block.type}`, () => block.render(ctx));
  return toRendered(output, ['tree']);
}

export async function blockRender(run: InteractiveRun<InteractiveData<'block.render'>>): Promise<BlockAnswer> {
  const delivered = run.envelope.data.block;
  const block = blockOf(run, delivered.type);
  return { kind: 'result', body: await renderWith(run, block, { block: delivered, ...readView(block, delivered) }) };
}

export async function blockInsert(run: InteractiveRun<InteractiveData<'block.insert'>>): Promise<BlockAnswer> {
  const { type, props: rawProps, target } = run.envelope.data;
  const block = blockOf(run, type);
  const props = parseWith(block.props, rawProps);
  if (!props.ok) throw new DeliveryRejection(400, 'invalid-props', `The props do not match the props schema of ${type} at ${props.path.join('.') || '(root)'}: ${props.message}`);
  const label = `insert of block ${type}`;
  const initial = block.insert
    ? await callHandler(label, () => block.insert!(extendContext(handlerContext(run.envelope, run.deps), { type, props: props.value, target })))
    : {};
  const state = readState(block, initial, label);
  // No block exists yet: render sees a placeholder with an empty id.
  const placeholder: BlockAsDelivered = { id: '', type, props: rawProps, state: state as Json, revision: 0, version: 0 };
  const rendered = await renderWith(run, block, { block: placeholder, props: props.value, state });
  return { kind: 'result', body: { state, ...rendered } };
}

export async function blockAction(run: InteractiveRun<InteractiveData<'block.action'>>): Promise<BlockAnswer> {
  const data = run.envelope.data;
  // A click in a link card's block: its reference kind runs it (authoring/interactive-references.ts).
  const card = (data.block as { reference?: { kind?: unknown } }).reference;
  if (card !== undefined) {
    const reference = run.tables.references.get(String(card?.kind));
    if (!reference) throw new DeliveryRejection(404, 'unknown-action', `This app version has no reference kind "${String(card?.kind).slice(0, 100)}"`);
    return reference.runAction(run);
  }
  const block = blockOf(run, data.block.type);
  const action = block.actions.get(data.action.name);
  if (!action?.handler) throw new DeliveryRejection(404, 'unknown-action', `Block type ${data.block.type} has no action "${data.action.name}" with a handler`);
  const label = `action ${data.action.name} of block ${data.block.type}`;
  const view = { block: data.block, ...readView(block, data.block) };
  const args = parseWith(action.args, data.action.args);
  if (!args.ok) throw new ResultProblem('args-mismatch', `The args of ${label} do not match its args schema at ${args.path.join('.') || '(root)'}: ${args.message}`, ['args', ...args.path]);
  const input = data.input === undefined ? { ok: true as const, value: undefined } : parseWith(action.input, data.input);
  if (!input.ok) {
    // Input is what a member typed: answer it beside the field instead of failing the action.
    const field = typeof input.path[0] === 'string' ? input.path[0] : undefined;
    const text = input.message.slice(0, 200);
    return { kind: 'result', body: field ? { fieldErrors: { [field]: text } } : { notice: { tone: 'warning', text: text.slice(0, 140) } } };
  }

  let deferral: Deferred | undefined;
  const waitUntil = waitUntilOf(run.deps);
  const interaction = lazyClient(run.deps, data.interactionToken);
  const extra: Omit<ActionContext<any, any, any, any>, keyof HandlerContext> = {
    ...view,
    action: data.action,
    args: args.value,
    input: input.value,
    tallies: data.tallies,
    invocationId: data.invocationId,
    interactionToken: data.interactionToken,
    defer(work) {
      deferral = deferred();
      if (work) waitUntil(Promise.resolve().then(work));
      return deferral;
    },
    render: (state) => renderWith(run, block, { ...view, state: state ?? view.state }),
    updateBlock: (state, options = {}) => {
      const body = { state: state as Json, ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}) };
      return options.replace ? interaction().blocks.replace(data.block.id, body) : interaction().blocks.update(data.block.id, body);
    },
  };
  // Storage and queue sends carry the interaction token: the service stages them and commits them with this result.
  const staged = { get storage() { return interaction().storage; }, queue: queueSender(interaction) };
  const ctx: ActionContext<any, any, any, any> = extendContext(extendContext(handlerContext(run.envelope, run.deps), extra), staged);
  const output = (await callHandler(label, () => action.handler!(ctx))) as ActionOutput<unknown>;
  if (isDeferred(output)) return { kind: 'deferred', deferral: output };
  if (output === undefined && deferral) return { kind: 'deferred', deferral };
  if (output !== undefined && (typeof output !== 'object' || output === null)) throw new ResultProblem('invalid-result', `${label} returned ${typeof output}; return an ActionResult object, nothing, or deferred()`);

  const result: Json = { ...(output ?? {}) };
  if (result.tree !== undefined && result.actions === undefined) Object.assign(result, toRendered(result.tree, ['tree']));
  if (result.state !== undefined) result.state = readState(block, result.state, label);
  // A changed state without a tree is drawn now, so the member sees it without a second round trip.
  if (result.state !== undefined && result.tree === undefined && action.readOnly !== true) {
    Object.assign(result, await renderWith(run, block, { ...view, state: result.state }));
  }
  return { kind: 'result', body: result };
}

export async function selectSearch(run: InteractiveRun<InteractiveData<'select.search'>>): Promise<BlockAnswer> {
  const data = run.envelope.data;
  const block = blockOf(run, data.block.type);
  const action = block.actions.get(data.action.name);
  if (!action?.search) throw new DeliveryRejection(404, 'unknown-action', `Block type ${data.block.type} has no action "${data.action.name}" with a search`);
  const label = `search ${data.action.name} of block ${data.block.type}`;
  const args = parseWith(action.args, data.action.args);
  if (!args.ok) throw new ResultProblem('args-mismatch', `The args of ${label} do not match its args schema at ${args.path.join('.') || '(root)'}: ${args.message}`, ['args', ...args.path]);
  const ctx = extendContext(handlerContext(run.envelope, run.deps), {
    block: data.block, ...readView(block, data.block), action: data.action, args: args.value, query: data.query,
  });
  const output = await callHandler(label, () => action.search!(ctx)) as SearchOutput;
  return { kind: 'result', body: Array.isArray(output) ? { options: output } : output };
}
