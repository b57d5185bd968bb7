/**
 * @module catalog/rules/forms
 * Fields (TextInput, Select, ChoiceGroup, Toggle): names unique across the block; a TextInput only
 * inside a Form; a ChoiceGroup, Select or Toggle outside a Form only with a change handler (a shared
 * one is told so by the spec's own message). Selects draw options from a static list or a search
 * action; choice groups show counts only for results the integration supplies.
 */
import { OURS, SPEC } from '../kit/messages.ts';
import type { NodeRule } from '../kit/spec.ts';
import { LIMITS } from '../../limits/limits.ts';
import { walkJson } from '../kit/json-walk.ts';
import { graphemeLength } from '../kit/measure.ts';
import { fail } from '../kit/state.ts';
import { firstRepeat, uniqueLabels } from './labels.ts';

export const fieldName: NodeRule = (node, state) => {
  const name = node.attrs.name as string;
  if (state.fieldNames.has(name)) fail(OURS.duplicateFieldName(name), [...node.path, 'attrs', 'name']);
  state.fieldNames.add(name);
};

export const fieldInForm: NodeRule = (node, state) => {
  if (state.closest('uiForm')) return;
  if (node.type === 'uiTextInput' || node.attrs.onChange === undefined) {
    fail(node.attrs.shared === true ? SPEC.sharedNeedsOnChange(node.component) : SPEC.fieldOutsideForm(node.component), node.path);
  }
};

interface Offer {
  value: string;
  label: string;
  count?: number;
}

export const selectRule: NodeRule = (node) => {
  const at = [...node.path, 'attrs'];
  const { options, search, value, selectedLabel } = node.attrs as { options?: Offer[]; search?: unknown; value?: string; selectedLabel?: string };
  if ((options === undefined) === (search === undefined)) fail(OURS.selectSource, node.path);
  if (selectedLabel !== undefined && search === undefined) fail(SPEC.onlySearchSelectedLabel, [...at, 'selectedLabel']);
  if (search !== undefined && value !== undefined && selectedLabel === undefined) fail(SPEC.searchValueNeedsLabel, [...at, 'value']);
  if (!options) return;
  const repeatedValue = firstRepeat(options, (o) => o.value);
  if (repeatedValue >= 0) fail(OURS.duplicateValue('Select option'), [...at, 'options', repeatedValue, 'value']);
  uniqueLabels(options, (o) => o.label, () => SPEC.optionLabelsUnique, (i) => [...at, 'options', i, 'label']);
  if (value !== undefined && !options.some((o) => o.value === value)) fail(OURS.valueNotOffered(value, 'options'), [...at, 'value']);
};

export const choiceGroupRule: NodeRule = (node) => {
  const at = [...node.path, 'attrs'];
  const { choices, value, multiple, results } = node.attrs as { choices: Offer[]; value?: string | string[]; multiple?: boolean; results?: string };
  const repeatedValue = firstRepeat(choices, (c) => c.value);
  if (repeatedValue >= 0) fail(OURS.duplicateValue('Choice'), [...at, 'choices', repeatedValue, 'value']);
  uniqueLabels(choices, (c) => c.label, (l) => SPEC.duplicateLabel(l, node.component), (i) => [...at, 'choices', i, 'label']);
  const counted = choices.findIndex((c) => c.count !== undefined);
  if (counted >= 0 && results !== 'integration') fail(SPEC.countOnlyIntegration, [...at, 'choices', counted, 'count']);
  if (value === undefined) return;
  if (Array.isArray(value) !== (multiple === true)) fail(OURS.valueNotList, [...at, 'value']);
  const picked = Array.isArray(value) ? value : [value];
  const offered = new Set(choices.map((c) => c.value));
  const stray = picked.findIndex((v) => !offered.has(v));
  if (stray >= 0) fail(OURS.valueNotOffered(picked[stray]!, 'choices'), Array.isArray(value) ? [...at, 'value', stray] : [...at, 'value']);
  if (new Set(picked).size !== picked.length) fail(OURS.duplicateValue('Picked'), [...at, 'value']);
};

/** A prefilled value fits the input's own `maxLength`. */
export const textInputValue: NodeRule = (node) => {
  const { value, maxLength } = node.attrs as { value?: string; maxLength?: number };
  if (value !== undefined && maxLength !== undefined && graphemeLength(value, maxLength) > maxLength) fail(SPEC.tooLong(maxLength), [...node.path, 'attrs', 'value']);
};

/**
 * A form's prefilled values must fit one submission (16 KB as `{ name: value, … }`): a form that
 * arrives already over the cap could never be sent back unchanged.
 */
export const formInput: NodeRule = (node, state) => {
  const form = state.closest('uiForm');
  if (!form || node.attrs.value === undefined) return;
  const cap = LIMITS.blockData.formInputBytes;
  const used = state.formInput.get(form) ?? 2;
  const entry = walkJson({ [node.attrs.name as string]: node.attrs.value }, cap);
  // The entry's own braces are the form's; a comma joins it to the ones before.
  const total = entry.kind === 'ok' ? used + entry.bytes - 2 + (used > 2 ? 1 : 0) : cap + 1;
  if (total > cap) fail(OURS.formInputSize, [...node.path, 'attrs', 'value']);
  state.formInput.set(form, total);
};
