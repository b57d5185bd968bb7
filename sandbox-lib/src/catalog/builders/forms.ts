/**
 * @module catalog/builders/forms
 * Builders for forms and fields. A form ends with `ui.submit(...)`; ChoiceGroup, Select and Toggle
 * may stand outside a form when they have an `onChange` action.
 */
import { type ActionInput, type Children, type Draft, type WithAudience, audienceOf, compact, node, split, toCall } from './core.ts';

/**
 * Fields and flow elements, ending with one submit button.
 * @example ui.form([ui.textInput({ name: 'reason', label: 'Reason' }), ui.submit({ label: 'Send', action: 'reject' })])
 */
export function form<N extends string = string>(children: Children<N>): Draft<N>;
export function form<N extends string = string>(options: WithAudience, children: Children<N>): Draft<N>;
export function form(a: WithAudience | readonly Draft[], b?: readonly Draft[]): Draft {
  const [o, children] = split<WithAudience>(a, b);
  return node('uiForm', { audience: audienceOf(o) }, children);
}

interface Field extends WithAudience {
  /** Unique across the block, forms included. */
  name: string;
  label: string;
}

interface Changeable<N extends string> {
  /** Stored per viewer and counted for everyone (a viewer input). */
  shared?: boolean;
  /** Delivered at once on every change (needed outside a form). */
  onChange?: ActionInput<N>;
  onChangeArgs?: unknown;
}

export interface TextInputOptions extends Field {
  placeholder?: string;
  value?: string;
  maxLength?: number;
  multiline?: boolean;
  required?: boolean;
}

/**
 * A text field; only inside a form.
 * @example ui.textInput({ name: 'title', label: 'Title', placeholder: 'What happened?', maxLength: 120 })
 */
export function textInput(options: TextInputOptions): Draft {
  const { audience: _, ...attrs } = options;
  return node('uiTextInput', { ...attrs, audience: audienceOf(options) });
}

export interface SelectOptions<N extends string = string> extends Field, Changeable<N> {
  placeholder?: string;
  /** A static list (up to 100) … */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** … or an action answering searches (`select.search`). */
  search?: ActionInput<N>;
  searchArgs?: unknown;
  value?: string;
  /** For search selects: the label of `value`. */
  selectedLabel?: string;
  required?: boolean;
}

/**
 * A dropdown with static options or searched ones.
 * @example ui.select({ name: 'env', label: 'Environment', options: [{ value: 'prod', label: 'Production' }, { value: 'dev', label: 'Development' }] })
 */
export function select<N extends string = string>(options: SelectOptions<NoInfer<N>>): Draft<N> {
  const { search, searchArgs, onChange, onChangeArgs, options: offered, audience: _, ...rest } = options;
  return node('uiSelect', {
    ...rest,
    options: offered?.map((o) => ({ value: o.value, label: o.label })),
    search: toCall(search, searchArgs),
    onChange: toCall(onChange, onChangeArgs),
    audience: audienceOf(options),
  });
}

export interface Choice {
  value: string;
  label: string;
  description?: string;
  /** Only with `results: 'integration'`. */
  count?: number;
}

export interface ChoiceGroupOptions<N extends string = string> extends Field, Changeable<N> {
  choices: readonly Choice[];
  multiple?: boolean;
  value?: string | readonly string[];
  /** `tallies`: the service's counts of a shared input; `integration`: the `count` of each choice. */
  results?: 'hidden' | 'tallies' | 'integration';
  required?: boolean;
}

/**
 * Radio buttons or checkboxes (up to 20 choices).
 * @example ui.choiceGroup({ name: 'lunch', label: 'Lunch?', shared: true, onChange: 'vote', results: 'tallies', choices: [{ value: 'pizza', label: 'Pizza' }, { value: 'sushi', label: 'Sushi' }] })
 */
export function choiceGroup<N extends string = string>(options: ChoiceGroupOptions<NoInfer<N>>): Draft<N> {
  const { onChange, onChangeArgs, choices, value, audience: _, ...rest } = options;
  return node('uiChoiceGroup', {
    ...rest,
    choices: choices.map((c) => compact({ ...c })),
    value: Array.isArray(value) ? [...value] : value,
    onChange: toCall(onChange, onChangeArgs),
    audience: audienceOf(options),
  });
}

export interface ToggleOptions<N extends string = string> extends Field, Changeable<N> {
  description?: string;
  value?: boolean;
}

/**
 * An on/off switch.
 * @example ui.toggle({ name: 'notify', label: 'Notify me', onChange: 'set-notify' })
 */
export function toggle<N extends string = string>(options: ToggleOptions<NoInfer<N>>): Draft<N> {
  const { onChange, onChangeArgs, audience: _, ...rest } = options;
  return node('uiToggle', { ...rest, onChange: toCall(onChange, onChangeArgs), audience: audienceOf(options) });
}
