/**
 * @module authoring/interactive-references
 * `reference.resolve` (up to 20 links, possibly of several kinds, answered in order),
 * `reference.search`, and clicks in a card's block (`block.action` with `data.block.reference`,
 * run by the kind's `actions`). One link that fails to resolve reads as `unavailable` (not cached,
 * resolved again later) instead of failing the others; the failure is logged.
 */
import type { InteractiveData } from '../delivery/index.ts';
import { describeError, extendContext, handlerContext } from './context.ts';
import { callHandler, DeliveryRejection } from './failures.ts';
import { isDeferred } from './deferred.ts';
import { ResultProblem, toRendered } from './results.ts';
import type { ReferenceActionOutput, ResolutionOutput } from './piece-types.ts';
import type { BlockAnswer, InteractiveRun } from './tables.ts';
import { unknownKindResolution, unknownSearchKind } from './absent-pieces.ts';

export async function referenceResolve(run: InteractiveRun<InteractiveData<'reference.resolve'>>): Promise<BlockAnswer> {
  const items = await Promise.all(run.envelope.data.items.map(async (item, i) => {
    const reference = run.tables.references.get(item.kind);
    if (!reference) return unknownKindResolution(run, item);
    let output: ResolutionOutput;
    try {
      output = await callHandler(`resolve of reference kind ${item.kind}`, () => reference.resolve(extendContext(handlerContext(run.envelope, run.deps), { ...item })));
    } catch (error) {
      run.deps.log.error(`resolve of reference kind ${item.kind} threw; answering unavailable`, { url: item.url, error: describeError(error instanceof Error ? error.cause ?? error : error) });
      return { url: item.url, access: 'unavailable' };
    }
    if (typeof output !== 'object' || output === null) {
      throw new ResultProblem('invalid-result', `resolve of reference kind ${item.kind} returned ${typeof output}; return a resolution object`, ['items', i]);
    }
    const resolution: Record<string, unknown> = { ...output, url: output.url ?? item.url };
    if (output.access === 'granted') {
      if (output.visibility === undefined) resolution.visibility = 'restricted';
      if (output.block !== undefined) resolution.block = toRendered(output.block, ['items', i, 'block']);
    }
    return resolution;
  }));
  return { kind: 'result', body: { items } };
}

export async function referenceSearch(run: InteractiveRun<InteractiveData<'reference.search'>>): Promise<BlockAnswer> {
  const { kind, query, limit } = run.envelope.data;
  const search = run.tables.references.get(kind)?.search;
  if (!search) throw unknownSearchKind(kind);
  const output = await callHandler(`search of reference kind ${kind}`, () => search(extendContext(handlerContext(run.envelope, run.deps), { kind, query, limit })));
  const items = Array.isArray(output) ? output : (output as { items?: unknown }).items;
  // The service asked for at most `limit`; extra items are dropped rather than failing the search.
  return { kind: 'result', body: { ...(Array.isArray(output) ? {} : output), items: Array.isArray(items) ? items.slice(0, limit) : items } };
}

/** A click in the block of a card: the kind's action by name, its answer as an ActionResult (a draft tree rendered). */
export async function referenceAction(run: InteractiveRun<InteractiveData<'block.action'>>): Promise<BlockAnswer> {
  const data = run.envelope.data;
  const card = (data.block as { reference?: { kind?: unknown; externalId?: unknown; url?: unknown } }).reference ?? {};
  const kind = String(card.kind);
  const handler = run.tables.references.get(kind)?.actions.get(data.action.name);
  if (!handler) throw new DeliveryRejection(404, 'unknown-action', `Reference kind "${kind.slice(0, 100)}" has no action "${data.action.name}"`);
  const label = `action ${data.action.name} of reference kind ${kind}`;
  const args = data.action.args ?? {};
  const ctx = extendContext(handlerContext(run.envelope, run.deps), {
    reference: { kind, externalId: String(card.externalId), url: String(card.url) }, action: { name: data.action.name, args }, args,
    invocationId: data.invocationId, revision: data.block.revision,
  });
  const output = (await callHandler(label, () => handler(ctx))) as ReferenceActionOutput;
  if (isDeferred(output)) return { kind: 'deferred', deferral: output };
  if (output === undefined) return { kind: 'result', body: {} };
  if (typeof output !== 'object' || output === null) throw new ResultProblem('invalid-result', `${label} returned ${typeof output}; return an ActionResult object, nothing, or deferred()`);
  const { tree, ...rest } = output;
  return { kind: 'result', body: tree === undefined ? rest : { ...rest, ...toRendered(tree, ['tree']) } };
}
