/**
 * The scanner behind the duplicate-key refusal (`core/http/duplicate-keys.ts`), against any JSON:
 * texts JSON.stringify wrote (keys, strings with quotes, backslashes and escapes, any spacing) have no
 * repeat; the same texts with one member of one object written again, its key escaped or not, give
 * exactly that member's path, with the count step (the parsed value's key count handed in) and
 * without it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateKeyPath, memberCount } from '../../../control-plane/src/core/http/duplicate-keys.ts';
import { assertCleanJson } from '../../../control-plane/src/core/http/request-strings.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;

/** `key` as a JSON string with every character after the first written as a `\u` escape. */
const escaped = (key: string): string => (key.length === 0 ? '""' : `"${JSON.stringify(key[0]).slice(1, -1)}${[...key.slice(1)].map((ch) => [...ch].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`);

/**
 * Writes `value` as JSON with `space` between tokens; the object at `target` (a path of keys and
 * indexes) gets its `member`-th member written a second time, under `spell(key)`.
 */
function write(value: Json, space: string, target: Path | null, member: number, spell: (key: string) => string, here: Path = []): string {
  if (Array.isArray(value)) return `[${space}${value.map((v, i) => write(v, space, target, member, spell, [...here, i])).join(`${space},${space}`)}${space}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const parts = entries.map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${write(v, space, target, member, spell, [...here, k])}`);
    if (target !== null && JSON.stringify(target) === JSON.stringify(here) && entries.length > 0) {
      const [k, v] = entries[member % entries.length]!;
      parts.push(`${spell(k)}${space}:${space}${JSON.stringify(v)}`);
    }
    return `{${space}${parts.join(`${space},${space}`)}${space}}`;
  }
  return JSON.stringify(value);
}

/** Paths of every non-empty object inside `value`. */
function objectPaths(value: Json, here: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...here, i]));
  if (value !== null && typeof value === 'object') {
    const inner = Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...here, k]));
    return Object.keys(value).length > 0 ? [here, ...inner] : inner;
  }
  return [];
}

const json = fc.jsonValue({ maxDepth: 5 }) as fc.Arbitrary<Json>;
const space = fc.constantFrom('', ' ', '\n  ', '\t');

describe('duplicateKeyPath', () => {
  it('finds nothing in JSON that JSON.stringify wrote', () => {
    fc.assert(fc.property(json, space, (value, sp) => {
      const text = write(value, sp, null, 0, JSON.stringify);
      expect(duplicateKeyPath(text)).toBeNull();
      expect(memberCount(text)).toBe(assertCleanJson(JSON.parse(text)));
      expect(duplicateKeyPath(text, assertCleanJson(JSON.parse(text)))).toBeNull();
    }), { numRuns: 500 });
  });

  it('names the one member written twice, its key spelled plainly or escaped', () => {
    const withObject = json.filter((v) => objectPaths(v).length > 0);
    fc.assert(fc.property(withObject, space, fc.nat(), fc.nat(), fc.boolean(), (value, sp, pick, member, escape) => {
      const paths = objectPaths(value);
      const target = paths[pick % paths.length]!;
      const text = write(value, sp, target, member, escape ? escaped : JSON.stringify);
      const keys = Object.keys(target.reduce<any>((v, k) => v[k], value));
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      const path = [...target, keys[member % keys.length]!];
      expect(duplicateKeyPath(text)).toEqual(path);
      expect(memberCount(text)).toBeGreaterThan(assertCleanJson(JSON.parse(text)));
      expect(duplicateKeyPath(text, assertCleanJson(JSON.parse(text)))).toEqual(path);
    }), { numRuns: 500 });
  });

  it.each([
    ['{"a":1,"a":2}', ['a']],
    ['[{"a":1},{"b":[0,{"c":1,"d":{},"c":2}]}]', [1, 'b', 1, 'c']],
    ['{"a":"\\\\","a":1}', ['a']],
    ['{"a\\"":1,"a\\u0022":2}', ['a"']],
    ['{"x":"{\\"y\\":1,\\"y\\":2}","y":1}', null],
    ['{"":1,"":2}', ['']],
    ['"a"', null],
    ['{}', null],
  ])('%s → %j', (text, path) => {
    expect(duplicateKeyPath(text)).toEqual(path);
    expect(duplicateKeyPath(text, assertCleanJson(JSON.parse(text)))).toEqual(path);
  });
});
