/**
 * @module render/forms
 * Forms and fields. Every field has a `<label>` (or a `<legend>` for a choice group) tied by id,
 * and a field error of the last submission is written below it, linked with `aria-describedby` and
 * marked `aria-invalid`. Outside a form a field with `onChange` carries `data-change` for the
 * client script; a search select is an ARIA combobox whose options the client script fetches.
 * Viewer inputs show the member's own pick and, with `results: tallies`, everyone's counts.
 */
import type { RenderContext } from './context.ts';
import { idFor } from './context.ts';
import { cls, el, esc } from './html.ts';
import { attrsOf, own, refOf, str, type Render } from './types.ts';

interface Field {
  id: string;
  name: string;
  error: string | undefined;
}

function field(ctx: RenderContext, a: Record<string, unknown>): Field {
  const name = str(a.name) ?? '';
  return { id: idFor(ctx, `field-${name}`), name, error: own(ctx.fieldErrors, name) };
}

const errorOf = (f: Field) => (f.error === undefined ? '' : el('p', { id: `${f.id}-error`, class: 'pb-field-error' }, esc(f.error)));
const invalid = (f: Field) => ({ 'aria-invalid': f.error === undefined ? null : 'true', 'aria-describedby': f.error === undefined ? null : `${f.id}-error` });
const changeAttr = (ctx: RenderContext, a: Record<string, unknown>) => (!ctx.inForm && refOf(a.onChange) !== undefined ? 'true' : null);
const frozen = (ctx: RenderContext) => ctx.final != null;

/** The values shown: the member's own pick of a viewer input, else the tree's `value`. */
function picked(ctx: RenderContext, name: string, value: unknown): string[] {
  const input = own(ctx.inputs, name);
  if (input !== undefined && input.mine.length > 0) return input.mine;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

const label = (f: Field, text: unknown, required: boolean) =>
  el('label', { for: f.id, class: 'pb-label' }, esc(str(text) ?? '') + (required ? el('span', { class: 'pb-required', 'aria-hidden': 'true' }, ' *') : ''));

const textInput: Render = (node, ctx) => {
  const a = attrsOf(node);
  const f = field(ctx, a);
  const common = {
    id: f.id, name: f.name, placeholder: str(a.placeholder), maxlength: typeof a.maxLength === 'number' ? a.maxLength : null,
    required: a.required === true, disabled: frozen(ctx), ...invalid(f),
  };
  const control = a.multiline === true ? el('textarea', { ...common, rows: 3 }, esc(str(a.value) ?? '')) : el('input', { ...common, type: 'text', value: str(a.value) ?? '' });
  return el('div', { class: cls('pb-field', f.error !== undefined && 'pb-invalid') }, label(f, a.label, a.required === true) + control + errorOf(f));
};

const select: Render = (node, ctx) => {
  const a = attrsOf(node);
  const f = field(ctx, a);
  const [value] = picked(ctx, f.name, a.value);
  if (refOf(a.search) !== undefined) {
    const list = `${f.id}-options`;
    return el('div', { class: cls('pb-field', 'pb-search-select', f.error !== undefined && 'pb-invalid'), 'data-search': f.name, 'data-change': changeAttr(ctx, a) },
      label(f, a.label, a.required === true)
      + el('input', {
        id: f.id, type: 'text', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': list, autocomplete: 'off',
        placeholder: str(a.placeholder) ?? 'Type to search', value: str(a.selectedLabel) ?? '', disabled: frozen(ctx), ...invalid(f),
      })
      + el('input', { type: 'hidden', name: f.name, value: value ?? '' })
      + el('ul', { id: list, role: 'listbox', class: 'pb-options', hidden: true, 'aria-label': str(a.label) ?? '' }, '')
      + errorOf(f));
  }
  const options = (Array.isArray(a.options) ? a.options as Array<Record<string, unknown>> : [])
    .map((o) => el('option', { value: str(o.value) ?? '', selected: o.value === value }, esc(str(o.label) ?? ''))).join('');
  const empty = el('option', { value: '', selected: value === undefined }, esc(str(a.placeholder) ?? 'Choose…'));
  return el('div', { class: cls('pb-field', f.error !== undefined && 'pb-invalid') }, label(f, a.label, a.required === true)
    + el('select', { id: f.id, name: f.name, required: a.required === true, disabled: frozen(ctx), 'data-change': changeAttr(ctx, a), ...invalid(f) }, empty + options)
    + errorOf(f));
};

function tally(ctx: RenderContext, a: Record<string, unknown>, choice: Record<string, unknown>, total: number): string {
  const name = str(a.name) ?? '';
  const count = a.results === 'integration' ? (typeof choice.count === 'number' ? choice.count : 0)
    : a.results === 'tallies' ? own(own(ctx.inputs, name)?.tallies, choice.value) ?? 0 : null;
  if (count === null) return '';
  const share = total > 0 ? Math.round((count / total) * 100) : 0;
  return el('span', { class: 'pb-tally' }, el('span', { class: 'pb-tally-bar', style: `width:${share}%`, 'aria-hidden': 'true' }, '')
    + esc(`${count} ${count === 1 ? 'vote' : 'votes'}`));
}

function totalOf(ctx: RenderContext, a: Record<string, unknown>, choices: Array<Record<string, unknown>>): number {
  if (a.results === 'integration') return choices.reduce((t, c) => t + (typeof c.count === 'number' ? c.count : 0), 0);
  if (a.results === 'tallies') return Object.values(own(ctx.inputs, a.name)?.tallies ?? {}).reduce((t, n) => t + n, 0);
  return 0;
}

const choiceGroup: Render = (node, ctx) => {
  const a = attrsOf(node);
  const f = field(ctx, a);
  const chosen = new Set(picked(ctx, f.name, a.value));
  const choices = Array.isArray(a.choices) ? a.choices as Array<Record<string, unknown>> : [];
  const total = totalOf(ctx, a, choices);
  const items = choices.map((c, i) => {
    const id = `${f.id}-${i}`;
    const description = str(c.description) === undefined ? '' : el('span', { class: 'pb-choice-description' }, esc(c.description));
    return el('div', { class: 'pb-choice' }, el('input', {
      type: a.multiple === true ? 'checkbox' : 'radio', id, name: f.name, value: str(c.value) ?? '', checked: chosen.has(str(c.value) ?? ''), disabled: frozen(ctx),
    }) + el('label', { for: id }, esc(str(c.label) ?? '') + description) + tally(ctx, a, c, total));
  }).join('');
  return el('fieldset', {
    class: cls('pb-field', 'pb-choices', f.error !== undefined && 'pb-invalid'), id: f.id, 'data-field': f.name, 'data-multiple': a.multiple === true ? 'true' : null,
    'data-change': changeAttr(ctx, a), ...invalid(f),
  }, el('legend', { class: 'pb-label' }, esc(str(a.label) ?? '') + (a.required === true ? el('span', { class: 'pb-required', 'aria-hidden': 'true' }, ' *') : '')) + items + errorOf(f));
};

const toggle: Render = (node, ctx) => {
  const a = attrsOf(node);
  const f = field(ctx, a);
  const mine = own(ctx.inputs, f.name)?.mine;
  const on = mine !== undefined && mine.length > 0 ? mine[0] === 'true' : a.value === true;
  const description = str(a.description) === undefined ? '' : el('p', { id: `${f.id}-description`, class: 'pb-toggle-description' }, esc(a.description));
  return el('div', { class: cls('pb-field', 'pb-toggle', f.error !== undefined && 'pb-invalid') },
    el('input', {
      type: 'checkbox', role: 'switch', id: f.id, name: f.name, checked: on, disabled: frozen(ctx), 'data-change': changeAttr(ctx, a),
      'aria-describedby': [description === '' ? '' : `${f.id}-description`, f.error === undefined ? '' : `${f.id}-error`].filter(Boolean).join(' ') || null,
      'aria-invalid': f.error === undefined ? null : 'true',
    }) + el('label', { for: f.id }, esc(str(a.label) ?? '')) + description + errorOf(f));
};

const form: Render = (node, ctx, kids) =>
  el('form', { class: 'pb-form', 'data-form': 'true', novalidate: true }, kids(node.content, { ...ctx, inForm: true }));

export const formRenderers: Record<string, Render> = {
  uiForm: form,
  uiTextInput: textInput,
  uiSelect: select,
  uiChoiceGroup: choiceGroup,
  uiToggle: toggle,
};
