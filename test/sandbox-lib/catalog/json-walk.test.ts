/**
 * The iterative size measure agrees with `JSON.stringify` byte for byte, stops at its cap, and
 * visits nodes in document order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringBytes, walkJson } from '../../../sandbox-lib/src/catalog/kit/json-walk.ts';

const anyChar = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: anyChar }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value')),
    fc.dictionary(fc.string({ unit: anyChar }), tie('value')),
  ),
})).value;

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('walkJson', () => {
  it('measures exactly what JSON.stringify writes', () => {
    fc.assert(fc.property(json, (value) => {
      expect(walkJson(value, Number.MAX_SAFE_INTEGER)).toEqual({ kind: 'ok', bytes: bytes(value) });
    }), { numRuns: 300 });
  });

  it('answers over exactly when the serialization is longer than the cap', () => {
    fc.assert(fc.property(json, fc.nat(400), (value, cap) => {
      expect(walkJson(value, cap).kind).toBe(bytes(value) > cap ? 'over' : 'ok');
    }), { numRuns: 300 });
  });

  it('escapes strings as JSON.stringify does', () => {
    for (const s of ['', 'plain', 'quote " slash \\', '\u0000\u001f\n\t', 'é', '€', '😀', '\ud800', 'a\udc00b', '\u2028']) {
      expect(stringBytes(s)).toBe(bytes(s));
    }
  });

  it('skips what JSON.stringify skips and counts NaN as null', () => {
    const value = { a: undefined, b: () => 1, c: [undefined, Number.NaN], d: Symbol('x') };
    expect(walkJson(value, 1000)).toEqual({ kind: 'ok', bytes: bytes(value) });
  });

  it('strict mode finds values JSON cannot carry', () => {
    expect(walkJson({ a: [1, { b: 1n }] }, 1000, { strict: true })).toEqual({ kind: 'not-json', path: ['a', 1, 'b'] });
    expect(walkJson({ a: new Map() }, 1000, { strict: true })).toEqual({ kind: 'not-json', path: ['a'] });
    expect(walkJson({ a: Number.POSITIVE_INFINITY }, 1000, { strict: true })).toEqual({ kind: 'not-json', path: ['a'] });
    expect(walkJson({ a: undefined, b: [1] }, 1000, { strict: true })).toEqual({ kind: 'ok', bytes: 9 });
  });

  it('visits nodes in document order with their depth and path', () => {
    const tree = { type: 'uiBlock', attrs: { content: [{ type: 'no' }] }, content: [{ type: 'uiText', content: [{ type: 'text', text: 'x' }] }, { type: 'uiActions' }] };
    const seen: unknown[] = [];
    walkJson(tree, 10_000, { visit: (node, depth, path) => (seen.push([node.type, depth, path()]), true) });
    expect(seen).toEqual([
      ['uiBlock', 1, []],
      ['uiText', 2, ['content', 0]],
      ['text', 2, ['content', 0, 'content', 0]],
      ['uiActions', 2, ['content', 1]],
    ]);
  });

  it('stops as soon as the cap is crossed, whatever the shape', () => {
    const deep: unknown[] = [];
    let cursor = deep;
    for (let i = 0; i < 200_000; i++) {
      const next: unknown[] = [];
      cursor.push(next);
      cursor = next;
    }
    expect(walkJson(deep, 65_536).kind).toBe('over');
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    expect(walkJson(wide, 65_536).kind).toBe('over');
    expect(walkJson('x'.repeat(10_000_000), 65_536).kind).toBe('over');
  });
});
