/**
 * @module catalog/validate/walk
 * The walk over a tree that passed the prepass (so at most 12 levels deep and 64 KB): for each node,
 * in document order, its shape, where it sits, its attributes, its rules, then its children.
 * The first problem is thrown as a `TreeProblem` and ends the walk.
 */
import { OURS, SPEC, componentName } from '../kit/messages.ts';
import { checkAudience } from '../rules/audience.ts';
import { registerLabel } from '../rules/labels.ts';
import { checkInline } from '../rules/text.ts';
import { FLOW } from '../spec/groups.ts';
import { REGISTRY, isKnownType } from '../spec/registry.ts';
import type { AttrSpec, ComponentSpec, NodeView } from '../kit/spec.ts';
import type { PathSegment } from '../kit/types.ts';
import { checkFields, isRecord } from '../kit/attr-types.ts';
import { Sequence } from './sequence.ts';
import { fail, type WalkState } from '../kit/state.ts';

const NODE_KEYS = new Set(['type', 'attrs', 'content']);
const isFlow = (type: string) => FLOW.has(type);

// Every node accepts `audience` syntactically; its own rule decides whether it may carry one there.
const withAudience = new Map<string, Readonly<Record<string, AttrSpec>>>();
function fieldsOf(spec: ComponentSpec): Readonly<Record<string, AttrSpec>> {
  let fields = withAudience.get(spec.type);
  if (!fields) {
    fields = { ...spec.attrs, audience: { check: () => undefined } };
    withAudience.set(spec.type, fields);
  }
  return fields;
}

/** The node's own shape (keys, attrs object, content list) as a view, or the first problem. */
function viewOf(node: Record<string, unknown>, type: string, path: PathSegment[]): NodeView {
  const component = componentName(type);
  for (const key of Object.keys(node)) {
    if (node[key] !== undefined && !NODE_KEYS.has(key)) fail(OURS.unknownField(component, key), [...path, key]);
  }
  if (node.attrs !== undefined && !isRecord(node.attrs)) fail(OURS.attrsNotObject(component), [...path, 'attrs']);
  if (node.content !== undefined && !Array.isArray(node.content)) fail(OURS.contentNotList(component), [...path, 'content']);
  return { type, component, attrs: (node.attrs as Record<string, unknown> | undefined) ?? {}, content: (node.content as unknown[] | undefined) ?? [], path };
}

/** A child must be an object with a known type; answers its spec. */
function specOf(child: unknown, at: PathSegment[]): ComponentSpec | 'text' {
  if (!isRecord(child) || typeof child.type !== 'string') fail(OURS.notANode, at);
  if (child.type === 'text') return 'text';
  const spec = REGISTRY.get(child.type);
  if (!spec) fail(OURS.unknownType(child.type), at);
  return spec;
}

function checkChildren(view: NodeView, spec: ComponentSpec, state: WalkState): void {
  const model = spec.content;
  if (model?.kind === 'inline') {
    checkInline(view.content, model, view.type, view.path, state, isKnownType);
    return;
  }
  const sequence = model ? new Sequence(model, view.component, view.path, view.content) : undefined;
  view.content.forEach((child, i) => {
    const at = [...view.path, 'content', i];
    const childSpec = specOf(child, at);
    const record = child as Record<string, unknown>;
    const name = componentName(record.type as string);
    // Text runs only fit inline containers, handled above.
    if (childSpec === 'text' || !sequence) fail(SPEC.cantHold(view.component, name), at);
    const raw: NodeView = { type: childSpec.type, component: name, attrs: isRecord(record.attrs) ? record.attrs : {}, content: [], path: at };
    for (const rule of childSpec.placement ?? []) rule(raw, state);
    sequence.accept(i, name, at);
    visitNode(record, childSpec, at, state);
  });
  sequence?.finish();
}

/** Checks one node and everything under it; its placement and its parent's content model are already checked. */
export function visitNode(node: Record<string, unknown>, spec: ComponentSpec, path: PathSegment[], state: WalkState): void {
  const view = viewOf(node, spec.type, path);
  const at = { component: view.component, name: '', path: [...path, 'attrs'], state };
  checkFields(view.attrs, fieldsOf(spec), at, (key) => OURS.unknownAttr(view.component, key), (key) => OURS.needsAttr(view.component, key), path);
  if (view.attrs.audience !== undefined) checkAudience(view, state, isFlow);
  registerLabel(view, state);
  for (const rule of spec.rules ?? []) rule(view, state);

  if (spec.textLimit !== undefined) state.pushOwner(path, spec.textLimit);
  state.frames.push({ type: spec.type, attrs: view.attrs, path, labels: spec.labelGroup ? { group: spec.labelGroup, seen: new Set() } : null });
  checkChildren(view, spec, state);
  state.frames.pop();
  if (spec.textLimit !== undefined) state.popOwner();
}
