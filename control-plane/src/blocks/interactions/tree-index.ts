/**
 * @module blocks/interactions/tree-index
 * A stored tree as one member sees it: parts whose `audience` leaves the member out are removed
 * (they never reach that member's client), and what is left is indexed: which references a click
 * may use (buttons and menu items, table row menus), which are form submits (with the form's field
 * names), and every field with its change handler, search action and allowed values. A reference
 * that only appears in a part the member cannot see is not theirs to use.
 *
 * Trees are validated before they are stored (≤ 12 levels, ≤ 250 components), so the recursive
 * walk is bounded.
 */
import { hiddenFrom } from '@platform/sdk';

export type Json = Record<string, unknown>;

export interface ClickUse {
  /** The node itself says destructive (`intent: destructive`); the action's hint may say so too. */
  destructive: boolean;
}

export interface FieldInfo {
  name: string;
  component: 'uiTextInput' | 'uiSelect' | 'uiChoiceGroup' | 'uiToggle';
  shared: boolean;
  multiple: boolean;
  /** Choice values or static select options; null when any value goes (text, search selects). */
  allowed: string[] | null;
  onChange: string | null;
  search: string | null;
  /** The form holding the field (index in document order), or null outside forms. */
  form: number | null;
}

export interface TreeIndex {
  /** The tree without the parts the member may not see (the stored object when nothing was removed). */
  tree: Json;
  clicks: Map<string, ClickUse>;
  /** Submit references → the field names of their form, and whether the button says destructive. */
  submits: Map<string, { fields: string[]; destructive: boolean }>;
  fields: Map<string, FieldInfo>;
}

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const refOf = (v: unknown): string | null => (isRecord(v) && typeof v.ref === 'string' ? v.ref : null);


const FIELD_TYPES = new Set(['uiTextInput', 'uiSelect', 'uiChoiceGroup', 'uiToggle']);

function allowedValues(type: string, attrs: Json): string[] | null {
  const list = type === 'uiChoiceGroup' ? attrs.choices : type === 'uiSelect' ? attrs.options : undefined;
  if (!Array.isArray(list)) return null;
  return list.flatMap((o) => (isRecord(o) && typeof o.value === 'string' ? [o.value] : []));
}

/**
 * @example
 * const index = indexTree(row.tree, actor.memberId);
 * if (!index.clicks.has(body.ref)) throw …;
 */
export function indexTree(tree: Json, memberId: string): TreeIndex {
  const clicks = new Map<string, ClickUse>();
  const submits = new Map<string, { fields: string[]; destructive: boolean }>();
  const fields = new Map<string, FieldInfo>();
  const formFields: string[][] = [];
  const pendingSubmits: Array<{ ref: string; form: number; destructive: boolean }> = [];

  const click = (ref: string | null, destructive: boolean) => {
    if (ref === null) return;
    clicks.set(ref, { destructive: destructive || (clicks.get(ref)?.destructive ?? false) });
  };

  const visit = (node: Json, form: number | null): Json | null => {
    const attrs = isRecord(node.attrs) ? node.attrs : undefined;
    if (hiddenFrom(attrs, memberId)) return null;
    const type = node.type as string;
    let inForm = form;
    if (type === 'uiForm') {
      inForm = formFields.length;
      formFields.push([]);
    }
    if (attrs !== undefined) {
      if (type === 'uiButton') {
        const ref = refOf(attrs.action);
        if (attrs.buttonType === 'submit' && ref !== null && inForm !== null) pendingSubmits.push({ ref, form: inForm, destructive: attrs.intent === 'destructive' });
        else if (attrs.buttonType === 'action') click(ref, attrs.intent === 'destructive');
      } else if (type === 'uiMenuItem') {
        click(refOf(attrs.action), attrs.intent === 'destructive');
      } else if (type === 'uiTable' && Array.isArray(attrs.rows)) {
        for (const row of attrs.rows) {
          if (!isRecord(row) || !Array.isArray(row.menu)) continue;
          for (const item of row.menu) if (isRecord(item)) click(refOf(item.action), item.intent === 'destructive');
        }
      } else if (FIELD_TYPES.has(type) && typeof attrs.name === 'string') {
        fields.set(attrs.name, {
          name: attrs.name,
          component: type as FieldInfo['component'],
          shared: attrs.shared === true,
          multiple: attrs.multiple === true,
          allowed: allowedValues(type, attrs),
          onChange: refOf(attrs.onChange),
          search: refOf(attrs.search),
          form: inForm,
        });
        if (inForm !== null) formFields[inForm]!.push(attrs.name);
      }
    }
    const content: unknown = node.content;
    if (!Array.isArray(content)) return node;
    let kept: unknown[] | undefined;
    content.forEach((child: unknown, i) => {
      const shown = isRecord(child) ? visit(child, inForm) : child;
      if (shown !== child && kept === undefined) kept = content.slice(0, i);
      if (kept !== undefined && shown !== null) kept.push(shown);
    });
    return kept === undefined ? node : { ...node, content: kept };
  };

  const shown = visit(tree, null) ?? { ...tree, content: [] };
  for (const { ref, form, destructive } of pendingSubmits) submits.set(ref, { fields: formFields[form]!, destructive });
  return { tree: shown, clicks, submits, fields };
}
