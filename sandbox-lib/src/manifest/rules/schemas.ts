/**
 * @module manifest/rules/schemas
 * `schema-too-complex`: each JSON Schema of the manifest (props, state, action args and input,
 * install config) within 5,000 nodes and 256 KB once expanded, all of them together within
 * 50,000 nodes and 2 MB, none nested deeper than 128; no recursion, remote or dynamic references,
 * nor nested `$id`. A reference that resolves nowhere, or a value that is not JSON, is `invalid`.
 */
import { LIMITS } from '../../limits/index.ts';
import { measureSchema, type SchemaProblemKind } from '../../json-schema/index.ts';
import { manifestInvalid, type ManifestPath, type ManifestRule } from '../model/rule.ts';
import type { Manifest } from '../model/schemas.ts';

const M = LIMITS.manifest;
const PER_SCHEMA = { maxNodes: M.schemaNodes, maxBytes: M.schemaExpandedBytes, maxDepth: M.manifestSchemaDepth };
const BROKEN: ReadonlySet<SchemaProblemKind> = new Set(['not-json', 'not-a-schema', 'unresolvable-ref']);

/**
 * Every JSON Schema of a manifest with its path, in manifest order.
 * @example manifestSchemas(manifest)[0] // { path: ['blocks', 0, 'props'], schema: { type: 'object' } }
 */
export function manifestSchemas(manifest: Manifest): Array<{ path: ManifestPath; schema: unknown }> {
  const found: Array<{ path: ManifestPath; schema: unknown }> = [];
  if (manifest.installConfig !== undefined) found.push({ path: ['installConfig'], schema: manifest.installConfig });
  for (const [i, block] of manifest.blocks.entries()) {
    found.push({ path: ['blocks', i, 'props'], schema: block.props }, { path: ['blocks', i, 'state'], schema: block.state });
    for (const [j, action] of block.actions.entries()) {
      if (action.args !== undefined) found.push({ path: ['blocks', i, 'actions', j, 'args'], schema: action.args });
      if (action.input !== undefined) found.push({ path: ['blocks', i, 'actions', j, 'input'], schema: action.input });
    }
  }
  return found;
}

export const schemasRule: ManifestRule = (manifest) => {
  let nodes = 0;
  let bytes = 0;
  for (const { path, schema } of manifestSchemas(manifest)) {
    const measured = measureSchema(schema, PER_SCHEMA);
    if (!measured.ok) {
      const reason = BROKEN.has(measured.problem.kind) ? 'invalid' : 'schema-too-complex';
      return manifestInvalid(reason, measured.problem.message, [...path, ...measured.problem.path]);
    }
    nodes += measured.stats.nodes;
    bytes += measured.stats.bytes;
    if (nodes > M.manifestSchemaNodes) {
      return manifestInvalid('schema-too-complex', `The manifest's schemas have over ${M.manifestSchemaNodes} nodes together once expanded`, path);
    }
    if (bytes > M.manifestSchemaBytes) {
      return manifestInvalid('schema-too-complex', `The manifest's schemas are over ${M.manifestSchemaBytes} bytes together once expanded`, path);
    }
  }
  return null;
};
