/**
 * @module authoring/results
 * Checking what a handler answers before it leaves the app: the result schema of its delivery
 * type, every tree against the catalog (with its action table), state against a zod state schema,
 * and the 1 MB response cap. A wrong answer becomes a `500` whose message names the field, and a
 * log line, so the author sees the mistake where it was made instead of a failure card later.
 */
import { renderTree, validateTree, type Draft, type RenderedTree } from '../catalog/index.ts';
import type { InteractiveType } from '../delivery/constants.ts';
import type { DeliveryEnvelope, ExecutionContextLike } from './context.ts';
import { read, type Check } from '../delivery/lean/index.ts';
import { LIMITS } from '../limits/index.ts';
import { jsonResponse } from './http.ts';
import type { Logger } from './logger.ts';

type Path = Array<string | number>;

/** A problem found in an answer: a message for the author and where. */
export class ResultProblem extends Error {
  readonly path: Path;
  readonly code: string;
  constructor(code: string, message: string, path: Path = []) {
    super(message);
    this.name = 'ResultProblem';
    this.code = code;
    this.path = path;
  }
}

const showPath = (path: Path): string => (path.length === 0 ? '(root)' : path.join('.'));

/**
 * A draft from `ui.*` or an already rendered `{ tree, actions }`, as `{ tree, actions }`.
 * @example toRendered(ui.block({ summary: 'Hi' }, [])) // { tree: { type: 'uiBlock', ... }, actions: {} }
 */
export function toRendered(output: unknown, path: Path): RenderedTree {
  if (typeof output !== 'object' || output === null) throw new ResultProblem('invalid-result', `${showPath(path)}: expected a tree (ui.block(...)) or { tree, actions }`, path);
  if ('tree' in output) return output as RenderedTree;
  return renderTree(output as Draft);
}

/**
 * Whether the SDK checks an answer's trees itself. The service checks every tree before it keeps
 * it and shows a refused one with its message and path on the Deliveries page, so a second check in
 * the app is only for its author: kept in development (a `dev` install, where `platform dev` shows
 * the problem in the app's own log at once), in tests that call `app.fetch` and in hosted isolates;
 * skipped where a server says its deliveries come from the platform and the install is a
 * workspace's (the Node adapter's `serve`). A click's tree is then validated once, not twice: the
 * check was the largest item of a self-hosted app's CPU per click (decisions/clicks.md).
 * @example checksTrees(envelope, deps.execution) // false for a workspace install behind `serve`
 */
export function checksTrees(envelope: Pick<DeliveryEnvelope, 'install'>, execution: ExecutionContextLike | undefined): boolean {
  return execution?.platformChecksTrees !== true || envelope.install.kind !== 'workspace';
}

/**
 * Throws a `ResultProblem` when `result` is not a valid `200` answer to a `type` delivery: `check`
 * (its result schema's lean twin; none for an answer the SDK made itself), then its trees unless
 * `trees` is false (`checksTrees`).
 * @example checkResult('block.render', { tree, actions }, 'render of poll', blockResultChecks['block.render'])
 */
export function checkResult(type: InteractiveType, result: unknown, label: string, check: Check | undefined, options: { trees?: boolean } = {}): void {
  const parsed = check === undefined ? { ok: true as const } : read(check, result);
  if (!parsed.ok) {
    const path = [...parsed.path];
    throw new ResultProblem('invalid-result', `${label} returned an invalid ${type} result at ${showPath(path)}: ${parsed.message}`, path);
  }
  if (options.trees === false) return;
  for (const [tree, actions, path] of treesOf(type, result as Record<string, unknown>)) {
    const verdict = validateTree(tree, actions ?? {});
    if (!verdict.valid) {
      const at = [...path, ...verdict.path];
      throw new ResultProblem('invalid-tree', `${label} returned a tree the catalog refuses at ${showPath(at)}: ${verdict.message}`, at);
    }
  }
}

function treesOf(type: InteractiveType, result: Record<string, unknown>): Array<[unknown, unknown, Path]> {
  if (type === 'reference.resolve') {
    const items = (result.items as Array<Record<string, unknown>>) ?? [];
    return items.flatMap((item, i): Array<[unknown, unknown, Path]> => {
      const block = item.block as { tree?: unknown; actions?: unknown } | undefined;
      return item.access === 'granted' && block ? [[block.tree, block.actions, ['items', i, 'block', 'tree']]] : [];
    });
  }
  if (type === 'block.render' || type === 'block.insert' || (type === 'block.action' && result.tree !== undefined)) {
    return [[result.tree, result.actions, ['tree']]];
  }
  return [];
}

/**
 * The `200` answer, after the 1 MB cap on what the service reads.
 * @example return okResponse(result)
 */
export function okResponse(result: unknown): Response {
  const body = JSON.stringify(result);
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most answers are known to fit without encoding them.
  if (body.length * 3 > LIMITS.actions.responseBodyBytes && new TextEncoder().encode(body).byteLength > LIMITS.actions.responseBodyBytes) {
    throw new ResultProblem('result-too-large', 'The answer is over 1 MB; the service refuses it');
  }
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

/**
 * The `500` for a problem in the author's answer, logged with what it was answering.
 * @example return problemResponse(problem, log, { type: 'block.action', delivery: 'dlv_1' })
 */
export function problemResponse(problem: ResultProblem, log: Logger, fields: Record<string, unknown>): Response {
  log.error(problem.message, { ...fields, code: problem.code, path: problem.path });
  return jsonResponse({ error: problem.code, message: problem.message, path: problem.path }, 500);
}
