/**
 * @module blocks/interactions/fields
 * What a member may send for a field of the tree they saw: text for a TextInput (≤ 2,000
 * characters), true or false for a Toggle, one of the offered values for a ChoiceGroup or a static
 * Select (a list of distinct ones with `multiple`), any value for a search Select; `null` clears.
 * A shared field named after one of the block type's viewer inputs must also fit that input's
 * declared values, and its pick is stored (blocks/interactions/inputs.ts).
 */
import { LIMITS, graphemeLength, invalidRequest } from '@platform/sdk';
import type { BlockType } from '../definitions/definitions.ts';
import type { Db } from '../../core/db/db.ts';
import { setPick } from './inputs.ts';
import type { FieldInfo } from './tree-index.ts';

type FieldValue = string | boolean | string[] | null;
type Path = Array<string | number>;

const bad = (path: Path, message: string) => invalidRequest([{ path, message, code: 'invalid_value' }]);

function picked(value: FieldValue): string[] {
  if (value === null) return [];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** The viewer input a field stands for, if it is one. */
export function viewerInput(field: FieldInfo, type: BlockType | undefined) {
  return field.shared ? type?.definition.inputs?.[field.name] : undefined;
}

/**
 * Throws `PlatformApiInvalidRequestError` (at `path`) unless `value` fits the field.
 * @example checkFieldValue(field, type, body.value, ['value']);
 */
export function checkFieldValue(field: FieldInfo, type: BlockType | undefined, value: FieldValue, path: Path): void {
  switch (field.component) {
    case 'uiToggle':
      if (typeof value !== 'boolean') throw bad(path, 'A toggle takes true or false');
      return;
    case 'uiTextInput':
      if (value !== null && (typeof value !== 'string' || graphemeLength(value) > LIMITS.text.textInputValue)) {
        throw bad(path, `Text fields take text of at most ${LIMITS.text.textInputValue} characters`);
      }
      return;
    default:
      break;
  }
  if (typeof value === 'boolean') throw bad(path, 'This field takes a value from its options');
  if (Array.isArray(value) && !(field.component === 'uiChoiceGroup' && field.multiple)) throw bad(path, 'This field takes one value');
  const values = picked(value);
  if (new Set(values).size !== values.length) throw bad(path, 'Values must be distinct');
  if (field.allowed !== null) {
    const stray = values.find((v) => !field.allowed!.includes(v));
    if (stray !== undefined) throw bad(path, `"${stray.slice(0, 64)}" is not one of the field's values`);
  } else if (values.some((v) => v.length === 0 || v.length > 200)) {
    throw bad(path, 'Values are 1 to 200 characters');
  }
  const input = viewerInput(field, type);
  if (input !== undefined) {
    const stray = values.find((v) => !input.values.includes(v));
    if (stray !== undefined) throw bad(path, `"${stray.slice(0, 64)}" is not a value of this input`);
    if (values.length > 1 && input.multiple !== true) throw bad(path, 'This input takes one value');
  }
}

/** Stores the member's picks of the viewer inputs among `values`. */
export async function storePicks(
  db: Db, blockId: string, fields: ReadonlyMap<string, FieldInfo>, type: BlockType, memberId: string, values: Record<string, FieldValue>, at: Date,
): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const field = fields.get(name);
    if (field !== undefined && viewerInput(field, type) !== undefined) await setPick(db, blockId, name, memberId, picked(value), at);
  }
}
