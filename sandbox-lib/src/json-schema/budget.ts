/**
 * @module json-schema/budget
 * Measures a JSON Schema "once expanded": every local `$ref` counted as a copy of its target, as a
 * validator that inlines references would see it. Both passes are iterative (explicit stacks), so
 * hostile nesting cannot overflow the call stack, and both stop as soon as a budget is crossed, so
 * a schema that expands exponentially (refs to refs to refs) costs no more than its own size:
 * each target is measured once and memoized.
 *
 * Rejected outright: remote references (anything not starting with `#`), `$dynamicRef` and
 * `$recursiveRef`, `$id` below the root, and recursion (a `$ref` reached again while it is being
 * expanded, which would never finish expanding).
 */
import { isJsonContainer, primitiveBytes, utf8Length } from './json-size.ts';
import { memberPosition, type Position } from './keywords.ts';
import { resolveLocalRef } from './pointer.ts';

export type SchemaPath = Array<string | number>;

export interface SchemaStats {
  /** JSON values (objects, arrays and primitives) once expanded. */
  readonly nodes: number;
  /** Bytes of the compact serialization once expanded. */
  readonly bytes: number;
  /** Nesting depth of objects and arrays once expanded. */
  readonly depth: number;
}

export interface SchemaBudget {
  readonly maxNodes: number;
  readonly maxBytes: number;
  readonly maxDepth: number;
}

export type SchemaProblemKind =
  | 'not-json' | 'not-a-schema' | 'remote-ref' | 'dynamic-ref' | 'nested-id' | 'unresolvable-ref' | 'recursive'
  | 'too-many-nodes' | 'too-many-bytes' | 'too-deep';

export interface SchemaProblem {
  readonly kind: SchemaProblemKind;
  readonly message: string;
  /** Location inside the schema. */
  readonly path: SchemaPath;
}

export type SchemaMeasure = { ok: true; stats: SchemaStats } | { ok: false; problem: SchemaProblem };

const fail = (kind: SchemaProblemKind, message: string, path: SchemaPath): SchemaMeasure => ({ ok: false, problem: { kind, message, path } });

/**
 * Measures `schema` against `budget`.
 * @example
 * measureSchema({ $defs: { s: { type: 'string' } }, items: { $ref: '#/$defs/s' } }, { maxNodes: 5000, maxBytes: 262144, maxDepth: 128 })
 * // { ok: true, stats: { nodes: 9, bytes: ..., depth: 3 } }
 */
export function measureSchema(schema: unknown, budget: SchemaBudget): SchemaMeasure {
  if (typeof schema === 'boolean') return { ok: true, stats: { nodes: 1, bytes: schema ? 4 : 5, depth: 0 } };
  if (!isJsonContainer(schema) || Array.isArray(schema)) return fail('not-a-schema', 'A JSON Schema is an object or a boolean', []);
  const scan = scanDocument(schema, budget);
  if ('problem' in scan) return { ok: false, problem: scan.problem };
  return expand(schema, scan.anchors, budget);
}

interface Scan { anchors: Map<string, unknown> }

/** Pass 1: the document as written. Finds forbidden keywords and anchors; caps raw size (expansion only grows it). */
function scanDocument(root: Record<string, unknown>, budget: SchemaBudget): Scan | { problem: SchemaProblem } {
  const anchors = new Map<string, unknown>();
  const stack: Array<{ value: unknown; position: Position; path: SchemaPath; depth: number }> = [{ value: root, position: 'schema', path: [], depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, position, path, depth } = stack.pop()!;
    if (++nodes > budget.maxNodes) return { problem: overNodes(budget, []) };
    if (!isJsonContainer(value)) {
      if (primitiveBytes(value) === null) return { problem: { kind: 'not-json', message: 'Schemas hold JSON values only', path } };
      continue;
    }
    if (depth + 1 > budget.maxDepth) return { problem: tooDeep(budget, path) };
    if (position === 'schema' && !Array.isArray(value)) {
      const found = checkKeywords(value, path, path.length === 0, anchors);
      if (found) return { problem: found };
    }
    const members: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (const [key, child] of members) {
      if (child === undefined && !Array.isArray(value)) continue;
      stack.push({ value: child, position: memberPosition(position, String(key), child), path: [...path, key], depth: depth + 1 });
    }
  }
  return { anchors };
}

function checkKeywords(schema: Record<string, unknown>, path: SchemaPath, isRoot: boolean, anchors: Map<string, unknown>): SchemaProblem | null {
  if (!isRoot && Object.hasOwn(schema, '$id')) {
    return { kind: 'nested-id', message: 'Only the root of a schema may carry $id', path: [...path, '$id'] };
  }
  for (const keyword of ['$dynamicRef', '$recursiveRef']) {
    if (Object.hasOwn(schema, keyword)) return { kind: 'dynamic-ref', message: `${keyword} is not supported`, path: [...path, keyword] };
  }
  const ref = schema.$ref;
  if (ref !== undefined) {
    if (typeof ref !== 'string') return { kind: 'not-a-schema', message: '$ref must be a string', path: [...path, '$ref'] };
    if (!ref.startsWith('#')) return { kind: 'remote-ref', message: `$ref "${ref.slice(0, 100)}" points outside the schema; only local references (#...) are allowed`, path: [...path, '$ref'] };
  }
  for (const keyword of ['$anchor', '$dynamicAnchor']) {
    const name = schema[keyword];
    if (typeof name === 'string') anchors.set(name, schema);
  }
  return null;
}

interface Frame {
  value: Record<string, unknown> | unknown[];
  position: Position;
  path: SchemaPath;
  members: Array<{ key: string | number; value: unknown; position: Position; keyBytes: number }>;
  next: number;
  nodes: number;
  bytes: number;
  childDepth: number;
}

/** Pass 2: the document once expanded, each container measured once (memoized per position). */
function expand(root: Record<string, unknown>, anchors: ReadonlyMap<string, unknown>, budget: SchemaBudget): SchemaMeasure {
  const done = new Map<string, Map<object, SchemaStats>>();
  const memo = (position: Position) => {
    let map = done.get(position);
    if (!map) done.set(position, (map = new Map()));
    return map;
  };
  const active = new Set<object>();
  const stack: Frame[] = [];
  const open = (value: Record<string, unknown> | unknown[], position: Position, path: SchemaPath): SchemaMeasure | null => {
    const members: Frame['members'] = [];
    const isObject = !Array.isArray(value);
    const entries: Array<[string | number, unknown]> = isObject ? Object.entries(value) : value.map((v, i) => [i, v]);
    for (const [key, raw] of entries) {
      if (raw === undefined && isObject) continue;
      let child = raw;
      let childPosition = memberPosition(position, String(key), raw);
      if (position === 'schema' && isObject && key === '$ref') {
        // The reference counts as a copy of its target, in place of the string.
        child = resolveLocalRef(root, raw as string, anchors);
        if (child === undefined) return fail('unresolvable-ref', `$ref "${String(raw).slice(0, 100)}" does not resolve inside the schema`, [...path, '$ref']);
        if (typeof child !== 'boolean' && (!isJsonContainer(child) || Array.isArray(child))) {
          return fail('not-a-schema', `$ref "${String(raw).slice(0, 100)}" points at something that is not a schema`, [...path, '$ref']);
        }
        childPosition = 'schema';
      }
      members.push({ key, value: child, position: childPosition, keyBytes: isObject ? utf8Length(JSON.stringify(key)) + 1 : 0 });
    }
    active.add(value);
    stack.push({ value, position, path, members, next: 0, nodes: 1, bytes: 2 + Math.max(0, members.length - 1), childDepth: 0 });
    return null;
  };

  const first = open(root, 'schema', []);
  if (first) return first;
  let result: SchemaStats = { nodes: 0, bytes: 0, depth: 0 };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.members.length) {
      const member = frame.members[frame.next]!;
      const path = [...frame.path, member.key];
      if (isJsonContainer(member.value)) {
        const known = memo(member.position).get(member.value);
        if (!known) {
          if (active.has(member.value)) {
            return fail('recursive', 'The schema refers to itself; recursive schemas are not allowed', path);
          }
          const problem = open(member.value, member.position, path);
          if (problem) return problem;
          continue;
        }
        add(frame, member.keyBytes, known);
      } else {
        const bytes = primitiveBytes(member.value);
        if (bytes === null) return fail('not-json', 'Schemas hold JSON values only', path);
        add(frame, member.keyBytes, { nodes: 1, bytes, depth: 0 });
      }
      frame.next++;
      continue;
    }
    stack.pop();
    active.delete(frame.value);
    const stats: SchemaStats = { nodes: frame.nodes, bytes: frame.bytes, depth: frame.childDepth + 1 };
    if (stats.nodes > budget.maxNodes) return { ok: false, problem: overNodes(budget, []) };
    if (stats.bytes > budget.maxBytes) return fail('too-many-bytes', `The schema is over ${budget.maxBytes} bytes once its references are expanded`, []);
    if (stats.depth > budget.maxDepth) return { ok: false, problem: tooDeep(budget, frame.path) };
    memo(frame.position).set(frame.value, stats);
    const parent = stack[stack.length - 1];
    if (parent) {
      add(parent, parent.members[parent.next]!.keyBytes, stats);
      parent.next++;
    } else {
      result = stats;
    }
  }
  return { ok: true, stats: result };
}

function add(frame: Frame, keyBytes: number, stats: SchemaStats): void {
  frame.nodes += stats.nodes;
  frame.bytes += keyBytes + stats.bytes;
  if (stats.depth > frame.childDepth) frame.childDepth = stats.depth;
}

function overNodes(budget: SchemaBudget, path: SchemaPath): SchemaProblem {
  return { kind: 'too-many-nodes', message: `The schema has over ${budget.maxNodes} nodes once its references are expanded`, path };
}

function tooDeep(budget: SchemaBudget, path: SchemaPath): SchemaProblem {
  return { kind: 'too-deep', message: `The schema nests deeper than ${budget.maxDepth} levels once its references are expanded`, path };
}
