// `uniqueItems` in app schemas runs in linear time (control-plane/src/apps/versions/unique-items.ts):
// JSON Schema's equality (numbers by value, objects by key set in any order, strings apart from
// numbers), ajv's error shape, and a 64 KB array of distinct objects validated without the pairwise
// comparison ajv does by default (~0.5 s before on this machine; no timing is asserted here).
import { describe, expect, it } from 'vitest';
import { canonicalKey, firstDuplicate } from '../../../control-plane/src/apps/versions/unique-items.ts';
import { compileVersionValidators } from '../../../control-plane/src/apps/versions/validators.ts';

const stateValidator = (list: Record<string, unknown>) => compileVersionValidators({
  blocks: [{ type: 'b', props: { type: 'object' }, state: { type: 'object', properties: { list } }, actions: [] }],
} as never).state.get('b')!;

describe('equality as JSON Schema defines it', () => {
  it.each([
    ['objects with keys in another order', [{ a: 1, b: [2, 3] }, { b: [2, 3], a: 1 }], [0, 1]],
    ['1 and 1.0', [1, 1.0], [0, 1]],
    ['equal nested arrays', [[1, [2, { x: null }]], 'x', [1, [2, { x: null }]]], [0, 2]],
    ['the first repeat wins', ['a', 'b', 'b', 'a'], [1, 2]],
  ])('%s are equal', (_name, items, pair) => {
    expect(firstDuplicate(items)).toEqual(pair);
  });

  it.each([
    ['"1" and 1', ['1', 1]],
    ['null, false, 0 and ""', [null, false, 0, '']],
    ['objects differing in one key', [{ a: 1 }, { a: 1, b: undefined }, { b: 1 }]],
    ['[1, 2] and [2, 1]', [[1, 2], [2, 1]]],
    ['a key that looks like a JSON fragment', [{ 'a":1,"b': 2 }, { a: 1, b: 2 }]],
  ])('%s are distinct', (_name, items) => {
    expect(firstDuplicate(items)).toBeNull();
  });

  it('keys are escaped, so crafted keys cannot collide with structure', () => {
    expect(canonicalKey({ 'a":1,"b': 2 })).not.toBe(canonicalKey({ a: 1, b: 2 }));
  });
});

describe('in an app schema', () => {
  it('refuses duplicates with ajv\'s error shape and allows them when uniqueItems is false', () => {
    const unique = stateValidator({ type: 'array', uniqueItems: true });
    expect(unique({ list: [{ id: 1, tag: 'x' }, { tag: 'x', id: 1 }] })).toBe(false);
    expect(unique.errors).toEqual([expect.objectContaining({ keyword: 'uniqueItems', instancePath: '/list', params: { i: 1, j: 0 } })]);
    expect(unique({ list: [{ id: 1 }, { id: 2 }] })).toBe(true);
    expect(stateValidator({ type: 'array', uniqueItems: false })({ list: [1, 1] })).toBe(true);
  });

  it('validates 6,000 distinct objects (64 KB) in one pass', () => {
    const list = Array.from({ length: 6000 }, (_, i) => ({ a: i }));
    const unique = stateValidator({ type: 'array', uniqueItems: true });
    expect(unique({ list })).toBe(true);
    expect(unique({ list: [...list, { a: 5999 }] })).toBe(false);
  });
});
