/**
 * Hostile input never throws and never blows the stack: it answers `valid: false` with a message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../../sandbox-lib/src/catalog/spec/registry.ts';
import { sink } from './fixtures.ts';
import { expectProblem, validateTree } from './helpers.ts';

const block = (content: unknown[]) => ({ type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content });

function nestedContent(levels: number): unknown {
  const root: Record<string, unknown> = block([]);
  let cursor = root;
  for (let i = 0; i < levels; i++) {
    const next = { type: 'uiStack', content: [] as unknown[] };
    (cursor.content as unknown[]).push(next);
    cursor = next;
  }
  return root;
}

function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) value = { x: value };
  return value;
}

describe('hostile trees', () => {
  it('a tree nested 100,000 deep answers with the depth message', () => {
    const result = validateTree(nestedContent(100_000));
    expectProblem(result, 'Blocks nest at most 12 levels deep');
    expect(result.valid === false && result.path).toHaveLength(24);
  });

  it('deep nesting inside attributes or args answers with a size message', () => {
    expectProblem(validateTree(block([{ type: 'uiText', attrs: nestedObject(100_000) }])), 'Blocks serialize to at most 64 KB', []);
    const bar = { type: 'uiActions', content: [{ type: 'uiButton', attrs: { buttonType: 'action', label: 'B', action: { ref: 'a0' } } }] };
    expectProblem(validateTree(block([bar]), { a0: { name: 'go', args: nestedObject(100_000) } }), 'Action arguments serialize to at most 2 KB', ['actions', 'a0', 'args']);
  });

  it('10 MB documents stop at the 64 KB cap', () => {
    const texts = Array.from({ length: 200_000 }, () => ({ type: 'uiText', content: [{ type: 'text', text: 'abcdefghij' }] }));
    expectProblem(validateTree(block(texts)), 'Blocks hold at most 250 components');
    expectProblem(validateTree(block([{ type: 'uiText', content: [{ type: 'text', text: 'x'.repeat(10_000_000) }] }])), 'Blocks serialize to at most 64 KB');
    const keys = Object.fromEntries(Array.from({ length: 1_000_000 }, (_, i) => [`k${i}`, 1]));
    expectProblem(validateTree(block([{ type: 'uiText', attrs: keys }])), 'Blocks serialize to at most 64 KB');
    const rows = Array.from({ length: 500_000 }, () => ({ cells: ['xxxxxxxxxx'] }));
    expectProblem(validateTree(block([{ type: 'uiTable', attrs: { columns: [{ label: 'A' }], rows } }])), 'Blocks serialize to at most 64 KB');
    const table = Object.fromEntries(Array.from({ length: 1_000_000 }, (_, i) => [`a${i}`, { name: 'go' }]));
    expectProblem(validateTree(block([{ type: 'uiActions' }]), table), 'Blocks hold at most 64 actions');
  });

  it('values JSON cannot carry are problems, not exceptions', () => {
    const odd = [() => 1, Symbol('s'), 10n, new Date(0), new Map(), Object.create(null), Number.NaN, [1, , 3]];
    for (const value of odd) {
      for (const tree of [value, block([value]), block([{ type: 'uiText', attrs: { variant: value }, content: [{ type: 'text', text: 'x' }] }]), block([{ type: value }])]) {
        expect(() => validateTree(tree, { a0: { name: 'go', args: value } })).not.toThrow();
        expect(validateTree(tree).valid).toBe(false);
      }
    }
  });

  it('arbitrary JSON never throws', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.option(fc.jsonValue(), { nil: undefined }), (tree, actions) => {
      const result = validateTree(tree, actions);
      expect(typeof result.valid).toBe('boolean');
    }), { numRuns: 500 });
  });

  it('node-shaped noise (catalog types, attribute names, random values) never throws', () => {
    const types = [...REGISTRY.keys(), 'text', 'mystery'];
    const attrNames = [...new Set([...REGISTRY.values()].flatMap((spec) => Object.keys(spec.attrs))), 'audience', 'href'];
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ ref: 'a0' }), fc.constant({ members: ['m'] }), fc.constant('https://a.example.com'));
    const node = fc.letrec((tie) => ({
      node: fc.record({
        type: fc.constantFrom(...types),
        attrs: fc.option(fc.dictionary(fc.constantFrom(...attrNames), value, { maxKeys: 4 }), { nil: undefined }),
        content: fc.option(fc.array(tie('node'), { maxLength: 3 }), { nil: undefined }),
        text: fc.option(fc.string(), { nil: undefined }),
      }, { requiredKeys: ['type'] }),
    })).node;
    fc.assert(fc.property(fc.array(node, { maxLength: 4 }), (content) => {
      const result = validateTree(block(content), { a0: { name: 'go' } });
      expect(typeof result.valid).toBe('boolean');
    }), { numRuns: 1000 });
  });

  it('valid trees with one random change never throw and answer a path into the tree or table', () => {
    const { tree, actions } = sink();
    const paths: Array<Array<string | number>> = [];
    const collect = (value: unknown, path: Array<string | number>) => {
      paths.push(path);
      if (Array.isArray(value)) value.forEach((v, i) => collect(v, [...path, i]));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, [...path, k]);
    };
    collect(tree, []);
    fc.assert(fc.property(fc.constantFrom(...paths.filter((p) => p.length > 0)), fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (path, replacement, remove) => {
      const copy = structuredClone(tree) as unknown as Record<string, unknown>;
      let parent: any = copy;
      for (const key of path.slice(0, -1)) parent = parent[key];
      const last = path[path.length - 1]!;
      if (remove && Array.isArray(parent)) parent.splice(last as number, 1);
      else if (remove) delete parent[last];
      else parent[last] = replacement;
      const result = validateTree(copy, actions);
      if (!result.valid) expect(Array.isArray(result.path)).toBe(true);
    }), { numRuns: 1000 });
  });
});
