/**
 * @module catalog/rules/actions
 * Action references and the action table. Nodes carry `{ ref }`; the table sent with the tree maps
 * each reference to `{ name, args? }` and stays on the server. Also the button and menu-item rules
 * that depend on what a control does (destructive actions need a confirm).
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, OURS, SPEC } from '../kit/messages.ts';
import type { AttrCheck, NodeRule } from '../kit/spec.ts';
import type { PathSegment } from '../kit/types.ts';
import { isRecord } from '../kit/attr-types.ts';
import { walkJson } from '../kit/json-walk.ts';
import { fail } from '../kit/state.ts';

/** References are short tokens (`a0`, `a1`, … from the builders); they mean nothing outside one revision. */
export const ACTION_REF = /^[A-Za-z0-9_-]{1,32}$/;

/** `{ ref }` pointing into the action table (checked against it when a table is given). */
export const actionRef = (): AttrCheck => (value, at) => {
  const ref = isRecord(value) ? value.ref : undefined;
  if (!isRecord(value) || typeof ref !== 'string' || !ACTION_REF.test(ref) || Object.keys(value).some((k) => k !== 'ref' && value[k] !== undefined)) {
    fail(OURS.attrType(at.component, at.name, 'an action reference like { "ref": "a0" }'), at.path);
  }
  if (at.state.actions && !Object.hasOwn(at.state.actions, ref)) fail(OURS.noAction(ref), [...at.path, 'ref']);
};

/**
 * The first problem of an action table, or undefined. Paths start with `actions` (a tree never has
 * that key at its root, so they cannot be mistaken for tree paths). Entries no node uses are allowed.
 */
export function actionTableProblem(table: unknown): { message: string; path: PathSegment[] } | undefined {
  if (!isRecord(table)) return { message: OURS.actionTableShape, path: ['actions'] };
  let count = 0;
  // Counted with an early exit, so a table with a million entries costs 65 steps.
  for (const ref in table) {
    if (Object.hasOwn(table, ref) && table[ref] !== undefined && ++count > LIMITS.actions.perBlock) {
      return { message: COUNTS.actionTable, path: ['actions', ref] };
    }
  }
  for (const ref of Object.keys(table)) {
    const entry = table[ref];
    if (entry === undefined) continue;
    const at: PathSegment[] = ['actions', ref];
    if (!ACTION_REF.test(ref)) return { message: OURS.actionRefFormat(ref), path: at };
    if (!isRecord(entry)) return { message: OURS.actionTableShape, path: at };
    const extra = Object.keys(entry).find((k) => k !== 'name' && k !== 'args' && entry[k] !== undefined);
    if (extra !== undefined) return { message: OURS.actionUnknownField(extra), path: [...at, extra] };
    if (typeof entry.name !== 'string' || !LIMITS.identifiers.actionName.test(entry.name)) return { message: OURS.actionName, path: [...at, 'name'] };
    if (entry.args !== undefined) {
      const size = walkJson(entry.args, LIMITS.actions.argsBytesPerButton, { strict: true });
      if (size.kind === 'over') return { message: OURS.actionArgsSize, path: [...at, 'args'] };
      if (size.kind === 'not-json') return { message: OURS.actionArgsJson, path: [...at, 'args', ...size.path] };
    }
  }
  return undefined;
}

const BUTTON_ATTRS: Readonly<Record<string, { needs: string; takes: readonly string[] }>> = {
  action: { needs: 'action', takes: ['action', 'confirm'] },
  submit: { needs: 'action', takes: ['action', 'confirm'] },
  copy: { needs: 'copyText', takes: ['copyText'] },
  link: { needs: 'href', takes: ['href'] },
  toggle: { needs: 'target', takes: ['target'] },
};
const EVERY_BUTTON = new Set(['buttonType', 'label', 'intent', 'icon', 'audience']);

/** Each button type takes its own attributes: an action, a link, copy text, or a section to toggle. */
export const buttonKind: NodeRule = (node, state) => {
  const buttonType = node.attrs.buttonType as string;
  const kind = BUTTON_ATTRS[buttonType]!;
  for (const key of Object.keys(node.attrs)) {
    if (node.attrs[key] !== undefined && !EVERY_BUTTON.has(key) && !kind.takes.includes(key)) {
      fail(OURS.buttonTypeAttr(buttonType, key), [...node.path, 'attrs', key]);
    }
  }
  if (node.attrs[kind.needs] === undefined) fail(OURS.needsAttr(node.component, kind.needs), node.path);
  if (node.attrs.intent === 'destructive' && kind.needs !== 'action') fail(OURS.onlyActionsDestructive, [...node.path, 'attrs', 'intent']);
  if (node.attrs.intent === 'destructive' && node.attrs.confirm === undefined) fail(SPEC.destructiveConfirm, node.path);
  const target = node.attrs.target;
  if (typeof target === 'string' && !state.index.handles.has(target)) fail(SPEC.noSectionHandle(target), [...node.path, 'attrs', 'target']);
};

/**
 * A menu item runs an action or opens a link; only one running an action may be destructive.
 * `item` locates the item, `fields` where its fields sit (its attrs, or the item itself in a table row).
 */
export function checkMenuItem(fields: Readonly<Record<string, unknown>>, item: PathSegment[], at: PathSegment[]): void {
  const hasAction = fields.action !== undefined;
  if (hasAction === (fields.href !== undefined)) fail(OURS.menuItemTarget, item);
  if (!hasAction && fields.intent === 'destructive') fail(OURS.onlyActionsDestructive, [...at, 'intent']);
  if (!hasAction && fields.confirm !== undefined) fail(OURS.onlyActionsConfirm, [...at, 'confirm']);
  if (fields.intent === 'destructive' && fields.confirm === undefined) fail(SPEC.destructiveConfirm, item);
}

export const menuItemRule: NodeRule = (node) => checkMenuItem(node.attrs, node.path, [...node.path, 'attrs']);
