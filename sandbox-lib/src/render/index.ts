/**
 * @module render
 * One renderer for catalog-v1 block trees, shared by the console, the playground and `platform dev`:
 * pure functions from a tree (and the block's live state) to an HTML string, with no DOM and no
 * import outside sandbox-lib. Interactive controls carry data attributes (`data-ref`,
 * `data-submit-ref`, `data-change`, `data-search`, `data-confirm`, `data-toggle`, `data-copy`) that
 * a client script turns into client API calls; without the script the markup still reads and
 * navigates (links, disclosure state, tab panels) as it should.
 *
 * @example
 * const html = renderBlock(view.tree, { blockId: view.id, revision: view.revision, pending: view.pending, error: view.error, inputs: view.inputs });
 */
import type { UiElementNode, UiNode } from '../catalog/kit/types.ts';
import { createContext, type RenderContext, type RenderOptions } from './context.ts';
import { cls, el, esc, safeHref } from './html.ts';
import { RENDERERS } from './registry.ts';
import { runs } from './text.ts';
import { attrsOf, own, str } from './types.ts';

export type { RenderInput, RenderOptions } from './context.ts';
export { RENDERERS } from './registry.ts';
export { esc, safeHref } from './html.ts';

/** Depth beyond the catalog's 12 levels is not drawn: an unvalidated tree cannot exhaust the stack. */
const MAX_DEPTH = 24;

function audience(node: UiElementNode, inner: string): string {
  const members = (attrsOf(node).audience as { members?: unknown } | undefined)?.members;
  if (!Array.isArray(members)) return inner;
  const note = `Only ${members.length} ${members.length === 1 ? 'member sees' : 'members see'} this`;
  return el('div', { class: 'pb-audience', 'data-audience': members.length }, el('span', { class: 'pb-audience-note' }, esc(note)) + inner);
}

function renderNodes(nodes: readonly UiNode[] | undefined, ctx: RenderContext, depth: number): string {
  if (depth > MAX_DEPTH) return '';
  let out = '';
  for (const node of nodes ?? []) {
    if (node.type === 'text') {
      out += runs([node]);
      continue;
    }
    const element = node as UiElementNode;
    const render = own(RENDERERS, element.type);
    const inner = render === undefined
      ? el('div', { class: 'pb-unknown' }, esc(`Unsupported component ${element.type}`))
      : render(element, ctx, (kids, c) => renderNodes(kids, c ?? ctx, depth + 1));
    out += element === ctx.problemAt ? pinned(ctx, audience(element, inner)) : audience(element, inner);
  }
  return out;
}

/** The validator's message above the node at fault, both marked for the eye and for screen readers. */
function pinned(ctx: RenderContext, inner: string): string {
  return el('div', { class: 'pb-problem-at' }, el('p', { class: 'pb-problem', role: 'alert' }, esc(ctx.problem?.message ?? '')) + inner);
}

/** The deepest element node on `path` from the root (a text node's, or an attribute's, owner). */
function nodeAt(root: unknown, path: ReadonlyArray<string | number>): object | undefined {
  let at: unknown = root;
  let found: object | undefined = typeof root === 'object' && root !== null ? root : undefined;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) break;
    at = (at as Record<string | number, unknown>)[key];
    if (typeof at === 'object' && at !== null && typeof (at as { type?: unknown }).type === 'string' && (at as { type: string }).type !== 'text') found = at;
  }
  return found;
}

/** Handles of sections and whether each starts collapsed (toggle buttons say so before the walk reaches them). */
function sectionsOf(tree: UiNode): Map<string, boolean> {
  const found = new Map<string, boolean>();
  const stack: Array<{ node: UiNode; depth: number }> = [{ node: tree, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node.type === 'text' || depth > MAX_DEPTH) continue;
    const element = node as UiElementNode;
    const handle = str(element.attrs?.handle);
    if (element.type === 'uiSection' && handle !== undefined) found.set(handle, element.attrs?.collapsed === true);
    for (const child of Array.isArray(element.content) ? element.content : []) stack.push({ node: child, depth: depth + 1 });
  }
  return found;
}

function statusLine(ctx: RenderContext): string {
  const parts: string[] = [];
  if (ctx.notice != null) parts.push(el('p', { class: cls('pb-notice', `pb-tone-${ctx.notice.tone}`), role: 'status' }, esc(ctx.notice.text)));
  const open = safeHref(ctx.openUrl ?? null);
  if (open !== null) parts.push(el('p', { class: 'pb-open-url' }, el('a', { href: open, rel: 'noopener noreferrer', target: '_blank', 'data-open-url': 'true' }, esc(`Open ${new URL(open).host}`))));
  if (ctx.error != null) parts.push(el('p', { class: 'pb-error', role: 'alert' }, esc(ctx.error.message)));
  if (ctx.final != null) parts.push(el('p', { class: 'pb-final-note', role: 'note' }, esc(`Closed: ${ctx.final.summary}`)));
  return parts.length === 0 ? el('div', { class: 'pb-status-line', 'aria-live': 'polite' }, '') : el('div', { class: 'pb-status-line', 'aria-live': 'polite' }, parts.join(''));
}

/**
 * A block: its tree in an `<article>` named by its summary, with the live state around it.
 * A tree that is not an object draws as an empty block with the error it would have.
 */
export function renderBlock(tree: unknown, options: RenderOptions = {}): string {
  const ctx = createContext(options);
  const root = (typeof tree === 'object' && tree !== null ? tree : { type: 'uiBlock', content: [] }) as UiElementNode;
  ctx.sections = sectionsOf(root);
  ctx.problemAt = options.problem == null ? undefined : nodeAt(root, options.problem.path);
  const summary = str(root.attrs?.summary) ?? '';
  const rendered = root.type === 'uiBlock' ? renderNodes(root.content, ctx, 1) : renderNodes([root], ctx, 1);
  // A problem of the root itself (or of the action table) shows above the whole body.
  const body = ctx.problemAt === root && options.problem != null ? pinned(ctx, rendered) : rendered;
  return el('article', {
    class: cls('pb-block', ctx.final != null && 'pb-final', ctx.pending != null && 'pb-pending', ctx.error != null && 'pb-has-error'),
    'aria-label': summary === '' ? 'App card' : summary,
    'aria-busy': ctx.pending != null ? 'true' : null,
    'data-block-id': options.blockId, 'data-revision': options.revision,
  }, body + statusLine(ctx));
}

/** Nodes without the block frame (a fragment of a tree, for the catalog's own pages). */
export function renderNodesHtml(nodes: readonly UiNode[], options: RenderOptions = {}): string {
  return renderNodes(nodes, createContext(options), 1);
}
