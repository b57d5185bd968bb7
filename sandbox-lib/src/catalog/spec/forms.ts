/**
 * @module catalog/spec/forms
 * Form and its fields: TextInput, Select, ChoiceGroup, Toggle. A form's children are flow elements
 * and fields, and its last row is one submit button. ChoiceGroup, Select and Toggle may also stand
 * outside a form with a change handler (`onChange`), which delivers each pick at once.
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, OURS, SPEC } from '../kit/messages.ts';
import { actionRef } from '../rules/actions.ts';
import { choiceGroupRule, fieldInForm, fieldName, formInput, selectRule, textInputValue } from '../rules/forms.ts';
import { formPlacement } from '../rules/structure.ts';
import { fail } from '../kit/state.ts';
import { flag, identifier, label, list, number, oneOf, optional, record, required, text } from '../kit/attr-types.ts';
import { flowChild, slot } from './groups.ts';
import type { AttrCheck, ComponentSpec } from '../kit/spec.ts';

const T = LIMITS.text;
const B = LIMITS.blockTree;
const ID = LIMITS.identifiers;

const fieldNameAttr = required(identifier(ID.inputName, '1 to 64 characters from A-Z, a-z, 0-9, _, . and -'));
const choiceValue = identifier(ID.choiceValue, '1 to 64 characters from A-Z, a-z, 0-9, _, . and -');

/** One choice value, or a list of them for a choice group with `multiple`. */
const choiceValues: AttrCheck = (value, at) => {
  if (Array.isArray(value)) value.forEach((v, i) => choiceValue(v, { ...at, name: `${at.name}.${i}`, path: [...at.path, i] }));
  else if (typeof value === 'string') choiceValue(value, at);
  else fail(OURS.attrType(at.component, at.name, 'a choice value or a list of them'), at.path);
};

export const formSpecs: ComponentSpec[] = [
  {
    type: 'uiForm',
    attrs: {},
    content: {
      kind: 'slots',
      after: SPEC.formEnd,
      slots: [
        slot(flowChild, 0, Number.POSITIVE_INFINITY, 'fields'),
        slot((c) => c.type === 'uiButton' && (c.attrs as Record<string, unknown> | undefined)?.buttonType === 'submit', 1, 1, 'a submit <Button> in its last row'),
      ],
    },
    placement: [formPlacement],
  },
  {
    type: 'uiTextInput',
    attrs: {
      name: fieldNameAttr,
      label: required(label(T.fieldLabel)),
      placeholder: optional(text({ max: T.placeholder })),
      value: optional(text({ max: T.textInputValue })),
      maxLength: optional(number({ integer: true, min: 1, max: B.textInputMaxLength })),
      multiline: optional(flag()),
      required: optional(flag()),
    },
    rules: [fieldName, fieldInForm, textInputValue, formInput],
  },
  {
    type: 'uiSelect',
    attrs: {
      name: fieldNameAttr,
      label: required(label(T.fieldLabel)),
      placeholder: optional(text({ max: T.placeholder })),
      options: optional(list(record({ value: required(choiceValue), label: required(label(T.optionLabel)) }), {
        min: 1,
        max: B.staticSelectOptions,
        count: COUNTS.selectOptions,
        few: SPEC.needs('<Select>', 'at least one option'),
      })),
      search: optional(actionRef()),
      value: optional(identifier(/^[^\p{Cc}]{1,200}$/u, 'a value of 1 to 200 characters')),
      selectedLabel: optional(label(T.optionLabel)),
      required: optional(flag()),
      shared: optional(flag()),
      onChange: optional(actionRef()),
    },
    rules: [fieldName, fieldInForm, selectRule, formInput],
  },
  {
    type: 'uiChoiceGroup',
    attrs: {
      name: fieldNameAttr,
      label: required(label(T.fieldLabel)),
      choices: required(list(record({
        value: required(choiceValue),
        label: required(label(T.choiceLabel)),
        description: optional(text({ max: T.choiceDescription })),
        count: optional(number({ integer: true, min: 0 })),
      }), { min: 1, max: B.valuesPerChoiceInput, count: COUNTS.choices, few: SPEC.needs('<ChoiceGroup>', 'at least one choice') })),
      multiple: optional(flag()),
      value: optional(choiceValues),
      results: optional(oneOf(['hidden', 'tallies', 'integration'])),
      required: optional(flag()),
      shared: optional(flag()),
      onChange: optional(actionRef()),
    },
    rules: [fieldName, fieldInForm, choiceGroupRule, formInput],
  },
  {
    type: 'uiToggle',
    attrs: {
      name: fieldNameAttr,
      label: required(label(T.fieldLabel)),
      description: optional(text({ max: T.toggleDescription })),
      value: optional(flag()),
      shared: optional(flag()),
      onChange: optional(actionRef()),
    },
    rules: [fieldName, fieldInForm, formInput],
  },
];
