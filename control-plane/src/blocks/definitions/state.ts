/**
 * @module blocks/definitions/state
 * Checking a block state or props against its JSON Schema (ajv, compiled once per version) and
 * the Block data limits: props 16 KB, state 64 KB (compact JSON, UTF-8). One place turns ajv's
 * errors into request issues with paths under the field they belong to.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { LIMITS, jsonSize, type RequestIssue } from '@platform/sdk';

export type SchemaCheck = { ok: true } | { ok: false; issues: RequestIssue[]; message: string };

/** JSON pointer segments of ajv (`/a/0/b~1c`) as a path. */
function pointerPath(pointer: string): Array<string | number> {
  if (pointer === '') return [];
  return pointer.split('/').slice(1).map((p) => {
    const key = p.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(key) ? Number(key) : key;
  });
}

/**
 * @example
 * const check = checkAgainst(poll.state, nextState, 'state', LIMITS.blockData.stateBytes);
 * if (!check.ok) throw new PlatformError('PlatformAppBlockStateInvalidError', check.message, { path: check.issues[0].path });
 */
export function checkAgainst(validate: ValidateFunction, value: unknown, field: 'props' | 'state', maxBytes: number): SchemaCheck {
  if (jsonSize(value, { maxBytes, maxDepth: LIMITS.manifest.manifestSchemaDepth }) === null) {
    const message = `The ${field} is over ${maxBytes / 1024} KB as JSON (or nested too deeply)`;
    return { ok: false, message, issues: [{ path: [field], message, code: 'too_large' }] };
  }
  if (validate(value)) return { ok: true };
  const issues: RequestIssue[] = (validate.errors ?? []).slice(0, 20).map((e) => {
    const path: Array<string | number> = [field, ...pointerPath(e.instancePath)];
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
    if (missing !== undefined) path.push(missing);
    return { path, message: e.message ?? 'is invalid', code: e.keyword };
  });
  const first = issues[0];
  const where = first === undefined ? field : first.path.join('.');
  return { ok: false, issues, message: `The ${field} does not match the block's ${field} schema at ${where}: ${first?.message ?? 'is invalid'}` };
}

export const checkState = (validate: ValidateFunction, state: unknown): SchemaCheck =>
  checkAgainst(validate, state, 'state', LIMITS.blockData.stateBytes);

export const checkProps = (validate: ValidateFunction, props: unknown): SchemaCheck =>
  checkAgainst(validate, props, 'props', LIMITS.blockData.propsBytes);
