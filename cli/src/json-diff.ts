/**
 * @module cli/json-diff
 * Where two JSON values differ, by JSON path (`$.state.count`, `$.tree.content[0].title`): each
 * leaf that changed, each key or item only one side has. `platform replay` prints it under two
 * answers that differ, so the author sees where without comparing two blobs by eye.
 */

export type JsonDifference =
  | { kind: 'changed'; path: string; before: unknown; after: unknown }
  | { kind: 'added'; path: string; after: unknown }
  | { kind: 'removed'; path: string; before: unknown };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const keyPath = (path: string, key: string) => (IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Differences of `after` from `before`, at most `limit` (the rest are counted).
 * @example jsonDiff({ a: 1, b: [1] }, { a: 2, b: [1, 2] }) // [{ kind: 'changed', path: '$.a', … }, { kind: 'added', path: '$.b[1]', … }]
 */
export function jsonDiff(before: unknown, after: unknown, limit = Infinity): { differences: JsonDifference[]; more: number } {
  const differences: JsonDifference[] = [];
  let more = 0;
  const add = (d: JsonDifference) => {
    if (differences.length < limit) differences.push(d);
    else more++;
  };
  // An explicit stack, not recursion: a deep answer cannot overflow the CLI's stack.
  const stack: Array<[string, unknown, unknown]> = [['$', before, after]];
  while (stack.length > 0) {
    const [path, a, b] = stack.pop()!;
    const children: Array<[string, unknown, unknown]> = [];
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (i >= a.length) add({ kind: 'added', path: `${path}[${i}]`, after: b[i] });
        else if (i >= b.length) add({ kind: 'removed', path: `${path}[${i}]`, before: a[i] });
        else children.push([`${path}[${i}]`, a[i], b[i]]);
      }
    } else if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        if (!(key in b)) add({ kind: 'removed', path: keyPath(path, key), before: a[key] });
        else children.push([keyPath(path, key), a[key], b[key]]);
      }
      for (const key of Object.keys(b)) if (!(key in a)) add({ kind: 'added', path: keyPath(path, key), after: b[key] });
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      add({ kind: 'changed', path, before: a, after: b });
    }
    // Pushed in reverse so they are visited in order (at each level, what one side lacks is told first).
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { differences, more };
}

const SHOWN_VALUE_CHARS = 80;
const shown = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS - 1)}…` : text;
};

/**
 * One line per difference: `$.a: 1 → 2`, `+ $.b[1]: 2`, `- $.c: "x"`.
 * @example diffLines(jsonDiff({ a: 1 }, { a: 2 })) // ['$.a: 1 → 2']
 */
export function diffLines(diff: { differences: JsonDifference[]; more: number }): string[] {
  const lines = diff.differences.map((d) =>
    d.kind === 'changed' ? `${d.path}: ${shown(d.before)} → ${shown(d.after)}`
      : d.kind === 'added' ? `+ ${d.path}: ${shown(d.after)}` : `- ${d.path}: ${shown(d.before)}`);
  if (diff.more > 0) lines.push(`… and ${diff.more} more`);
  return lines;
}
