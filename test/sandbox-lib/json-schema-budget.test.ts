// The JSON Schema budget: per schema 5,000 nodes and 256 KB once expanded; all schemas of a
// manifest 50,000 nodes and 2 MB; nesting at most 128; recursion, remote and dynamic references
// and nested $id refused. Hostile shapes must answer quickly and never overflow the stack.
import { describe, expect, it } from 'vitest';
import { LIMITS, measureSchema, validateManifest } from '@platform/sdk';
import { manifestWith } from './manifest-fixtures.ts';

const M = LIMITS.manifest;

/** A schema of exactly `nodes` JSON values: the object, the enum array and its entries. */
const withNodes = (nodes: number) => ({ enum: Array.from({ length: nodes - 2 }, () => 0) });
/** A schema of exactly `bytes` bytes serialized. */
const withBytes = (bytes: number) => ({ description: 'x'.repeat(bytes - '{"description":""}'.length) });
/** Objects nested `depth` deep. */
const withDepth = (depth: number) => {
  let schema: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) schema = { not: schema };
  return schema;
};

const inProps = (schema: unknown) => manifestWith((m) => (m.blocks[0].props = schema));
const reasonOf = (manifest: unknown) => {
  const result = validateManifest(manifest);
  return result.valid ? null : result.error.reason;
};

describe('per-schema budget', () => {
  it('builders measure what they say', () => {
    expect(JSON.stringify(withBytes(1000)).length).toBe(1000);
    const budget = { maxNodes: 1e9, maxBytes: 1e12, maxDepth: 1e6 };
    expect(measureSchema(withNodes(5000), budget)).toMatchObject({ ok: true, stats: { nodes: 5000 } });
    expect(measureSchema(withDepth(128), budget)).toMatchObject({ ok: true, stats: { depth: 128 } });
  });

  it.each([
    ['5,000 nodes', null, withNodes(M.schemaNodes)],
    ['5,001 nodes', 'schema-too-complex', withNodes(M.schemaNodes + 1)],
    ['256 KB', null, withBytes(M.schemaExpandedBytes)],
    ['256 KB + 1 byte', 'schema-too-complex', withBytes(M.schemaExpandedBytes + 1)],
    ['nesting 128', null, withDepth(M.manifestSchemaDepth)],
    ['nesting 129', 'schema-too-complex', withDepth(M.manifestSchemaDepth + 1)],
  ])('%s in props → %s', (_name, reason, schema) => {
    expect(reasonOf(inProps(schema))).toBe(reason);
  });

  it('counts references once expanded', () => {
    const target = withNodes(1000);
    const refs = (n: number) => ({ $defs: { t: target }, allOf: Array.from({ length: n }, () => ({ $ref: '#/$defs/t' })) });
    // Root, $defs with the target, allOf, and per reference its object plus a copy of the target
    // in place of the string: 4,006 nodes expanded for 3 references, 5,007 for 4.
    expect(measureSchema(refs(3), { maxNodes: 1e9, maxBytes: 1e12, maxDepth: 128 })).toMatchObject({ ok: true, stats: { nodes: 1 + (1 + 1000) + 1 + 3 * (1 + 1000) } });
    expect(reasonOf(inProps(refs(3)))).toBeNull();
    expect(reasonOf(inProps(refs(4)))).toBe('schema-too-complex');
  });

  it('stops an exponential expansion early (refs to refs to refs)', () => {
    const defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let i = 1; i <= 60; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    expect(reasonOf(inProps({ $defs: defs, $ref: '#/$defs/d60' }))).toBe('schema-too-complex');
  });

  it.each([
    ['a reference to the root', { properties: { child: { $ref: '#' } } }],
    ['a reference to an ancestor', { properties: { a: { items: { $ref: '#/properties/a' } } } }],
    ['mutual references', { $defs: { a: { not: { $ref: '#/$defs/b' } }, b: { not: { $ref: '#/$defs/a' } } }, $ref: '#/$defs/a' }],
    ['an anchor pointing at an ancestor', { $anchor: 'top', properties: { a: { $ref: '#top' } } }],
    ['a remote reference', { $ref: 'https://schemas.example.com/x.json' }],
    ['a relative reference', { items: { $ref: 'other.json#/x' } }],
    ['$dynamicRef', { $dynamicAnchor: 'n', items: { $dynamicRef: '#n' } }],
    ['$recursiveRef', { items: { $recursiveRef: '#' } }],
    ['a nested $id', { properties: { a: { $id: 'https://example.com/a', type: 'string' } } }],
  ])('%s → schema-too-complex', (_name, schema) => {
    expect(reasonOf(inProps(schema))).toBe('schema-too-complex');
  });

  it.each([
    ['a root $id', { $id: 'https://example.com/poll', type: 'object' }],
    ['a property named $ref or $id', { properties: { $ref: { type: 'string' }, $id: { type: 'string' } } }],
    ['$ref-like data in const, enum, default, examples', { const: { $ref: 'https://x' }, enum: [{ $id: 'x' }], default: { $dynamicRef: '#' }, examples: [{ $ref: '#' }] }],
    ['local references by pointer and anchor', { $defs: { 'a/b': { $anchor: 'ab', type: 'string' } }, properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#ab' } } }],
    ['a boolean schema', true],
  ])('%s passes', (_name, schema) => {
    expect(reasonOf(inProps(schema))).toBeNull();
  });

  it.each([
    ['a reference that resolves nowhere', { $ref: '#/$defs/missing' }],
    ['a reference to a non-schema', { type: 'object', properties: { a: { $ref: '#/type' } } }],
    ['a non-JSON value', { default: Number.NaN }],
  ])('%s → invalid', (_name, schema) => {
    expect(reasonOf(inProps(schema))).toBe('invalid');
  });

  it('answers hostile nesting without overflowing the stack', () => {
    let deepObject: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deepObject = { not: deepObject };
    let deepArray: unknown = [];
    for (let i = 0; i < 200_000; i++) deepArray = [deepArray];
    expect(reasonOf(inProps(deepObject))).toBe('schema-too-complex');
    expect(reasonOf(inProps({ const: deepArray }))).toBe('schema-too-complex');
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(reasonOf(inProps(cyclic))).toBe('schema-too-complex');
  });

  it('points at the offending place inside the schema', () => {
    const result = validateManifest(inProps({ properties: { a: { $ref: 'https://x.example/s' } } }));
    expect(result).toMatchObject({ valid: false, error: { path: ['blocks', 0, 'props', 'properties', 'a', '$ref'] } });
  });
});

describe('whole-manifest budget', () => {
  const blocks = (n: number, schema: () => unknown) => Array.from({ length: n }, (_, i) => ({ type: `b${i}`, title: 'B', props: schema(), state: schema() }));

  it('50,000 nodes in all schemas pass; one more fails', () => {
    // 5 blocks × (props + state) × 5,000 nodes = 50,000.
    const at = manifestWith((m) => { m.blocks = blocks(5, () => withNodes(M.schemaNodes)); m.scopes = ['conversations:read']; });
    expect(reasonOf(at)).toBeNull();
    const over = manifestWith((m) => { m.blocks = blocks(5, () => withNodes(M.schemaNodes)); m.scopes = ['conversations:read']; m.installConfig = true; });
    expect(reasonOf(over)).toBe('schema-too-complex');
  });

  it('2 MB in all schemas pass; one byte more fails', () => {
    // 4 blocks × 2 schemas × 256 KB = 2 MB.
    const at = manifestWith((m) => { m.blocks = blocks(4, () => withBytes(M.schemaExpandedBytes)); m.scopes = ['conversations:read']; });
    expect(reasonOf(at)).toBeNull();
    const over = manifestWith((m) => { m.blocks = blocks(4, () => withBytes(M.schemaExpandedBytes)); m.scopes = ['conversations:read']; m.installConfig = true; });
    expect(reasonOf(over)).toBe('schema-too-complex');
  });

  it('checks action args and input and the install config too', () => {
    expect(reasonOf(manifestWith((m) => (m.blocks[0].actions[0].args = { $ref: 'https://x.example' })))).toBe('schema-too-complex');
    expect(reasonOf(manifestWith((m) => (m.blocks[0].actions[0].input = withNodes(M.schemaNodes + 1))))).toBe('schema-too-complex');
    expect(reasonOf(manifestWith((m) => (m.installConfig = { $dynamicRef: '#x' })))).toBe('schema-too-complex');
  });
});
