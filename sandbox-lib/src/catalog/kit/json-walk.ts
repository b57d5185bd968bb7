/**
 * @module catalog/kit/json-walk
 * Measures the compact JSON serialization of a value without recursion and without serializing it:
 * a loop over an explicit stack of open containers, stopping as soon as the byte cap is crossed.
 * Hostile input (a million nested arrays, a 10 MB string, an object with a million keys) therefore
 * costs no more than the cap allows and cannot overflow the call stack as `JSON.stringify` would.
 * Object members and array items are visited in `JSON.stringify` order (own enumerable keys as
 * `Object.keys` lists them), so "first" means first in the serialized document.
 */
import type { PathSegment } from './types.ts';

/** Bytes of `JSON.stringify(text)` in UTF-8. */
export function stringBytes(text: string): number {
  // Plain ASCII without quotes, backslashes or control characters serializes as itself plus quotes.
  if (/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) bytes += 2;
    else if (c < 0x20) bytes += 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) bytes += 6; // lone surrogate: written as \udXXX
    else bytes += 3;
  }
  return bytes;
}

/** Values `JSON.stringify` leaves out of objects (and writes as `null` in arrays). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Values that are not JSON at all (checked only in strict mode, for action arguments). */
function notJson(value: unknown): boolean {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return true;
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto !== Object.prototype && proto !== null;
}

/** Bytes a primitive writes; anything longer than `room` is only known to be over it. */
function primitiveBytes(value: unknown, room: number): number {
  switch (typeof value) {
    case 'string': return value.length > room ? room + 1 : stringBytes(value);
    case 'number': return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean': return value ? 4 : 5;
    case 'bigint': return String(value).length;
    default: return 4; // null, and skipped values inside arrays
  }
}

type Role = 'node' | 'nodeList' | 'plain';

interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  /** Keys of an object, `null` for an array. */
  readonly keys: string[] | null;
  readonly role: Role;
  /** Depth of the nearest node at or above this container. */
  readonly depth: number;
  next: number;
  emitted: number;
  /** Key or index of the member being walked: the frames' `at` values make the path. */
  at: PathSegment;
}

/** Called for every node (the root, and each object in a node's `content`), in document order. */
export type NodeVisitor = (node: Record<string, unknown>, depth: number, path: () => PathSegment[]) => boolean;

export type WalkOutcome =
  | { kind: 'ok'; bytes: number }
  | { kind: 'over' }
  | { kind: 'stopped' }
  | { kind: 'not-json'; path: PathSegment[] };

/**
 * Walks `value` in serialization order. Answers `over` once more than `maxBytes` would be written,
 * `stopped` when `visit` returns false, and (only with `strict`) `not-json` on a value JSON cannot
 * carry. With `visit`, the root and every object in a node's `content` list is a node; node depth
 * counts the nodes on the way down that are not plain text, the root being 1.
 */
export function walkJson(value: unknown, maxBytes: number, options: { visit?: NodeVisitor; strict?: boolean } = {}): WalkOutcome {
  const { visit, strict = false } = options;
  const frames: Frame[] = [];
  const pathOf = (): PathSegment[] => frames.map((f) => f.at);
  let bytes = 0;

  const open = (item: unknown, role: Role, parentDepth: number): 'go' | 'stop' | 'bad' => {
    if (strict && notJson(item)) return 'bad';
    if (typeof item !== 'object' || item === null) {
      bytes += primitiveBytes(item, maxBytes - bytes);
      return 'go';
    }
    bytes += 2;
    if (Array.isArray(item)) {
      frames.push({ container: item, keys: null, role, depth: parentDepth, next: 0, emitted: 0, at: 0 });
      return 'go';
    }
    const record = item as Record<string, unknown>;
    let depth = parentDepth;
    if (role === 'node') {
      if (record.type !== 'text') depth += 1;
      if (visit && !visit(record, depth, pathOf)) return 'stop';
    }
    // Count members before listing them: an object with a million keys is over the cap long before
    // Object.keys would finish allocating (each member writes at least 4 bytes: "":0).
    const room = maxBytes - bytes;
    let members = 0;
    for (const key in record) {
      if (Object.hasOwn(record, key) && !skipped(record[key]) && ++members * 4 > room) {
        bytes = maxBytes + 1;
        return 'go';
      }
    }
    frames.push({ container: record, keys: Object.keys(record), role: role === 'node' ? 'node' : 'plain', depth, next: 0, emitted: 0, at: '' });
    return 'go';
  };

  let step = open(value, visit ? 'node' : 'plain', 0);
  while (step === 'go' && frames.length > 0 && bytes <= maxBytes) {
    const frame = frames[frames.length - 1]!;
    let child: unknown;
    let role: Role = 'plain';
    if (frame.keys === null) {
      const list = frame.container as unknown[];
      if (frame.next >= list.length) {
        frames.pop();
        continue;
      }
      frame.at = frame.next;
      child = list[frame.next++];
      if (frame.role === 'nodeList') role = 'node';
      if (frame.emitted++ > 0) bytes += 1;
    } else {
      if (frame.next >= frame.keys.length) {
        frames.pop();
        continue;
      }
      const key = frame.keys[frame.next++]!;
      child = (frame.container as Record<string, unknown>)[key];
      if (skipped(child) && !(strict && child !== undefined)) continue;
      frame.at = key;
      bytes += stringBytes(key) + 1 + (frame.emitted++ > 0 ? 1 : 0);
      if (frame.role === 'node' && key === 'content') role = 'nodeList';
    }
    step = open(child, role, frame.depth);
  }
  if (step === 'bad') return { kind: 'not-json', path: pathOf() };
  if (step === 'stop') return { kind: 'stopped' };
  return bytes > maxBytes ? { kind: 'over' } : { kind: 'ok', bytes };
}
