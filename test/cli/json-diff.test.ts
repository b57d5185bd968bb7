/**
 * Where two answers differ (cli/json-diff.ts, and `platform replay`'s lines under two answers):
 * by JSON path, each changed leaf, each key or item only one side has; text by its first differing
 * character; a status that changed first.
 */
import { describe, expect, it } from 'vitest';
import { diffLines, jsonDiff } from '../../cli/src/json-diff.ts';
import { answerDifferences } from '../../cli/src/replay.ts';

const answer = (status: number | null, response: string | null) => ({ status, error: null, response, responseTruncated: false });

describe('jsonDiff', () => {
  it.each([
    ['equal values', { a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }, []],
    ['a changed leaf', { state: { count: 1 } }, { state: { count: 2 } }, ['$.state.count: 1 → 2']],
    ['an added and a removed key', { a: 1, gone: true }, { a: 1, fresh: null }, ['- $.gone: true', '+ $.fresh: null']],
    ['items past the end of either array', { xs: [1, 2, 3] }, { xs: [1] }, ['- $.xs[1]: 2', '- $.xs[2]: 3']],
    ['a leaf in an array', { tree: { content: [{ title: 'Hi' }] } }, { tree: { content: [{ title: 'Ho' }] } }, ['$.tree.content[0].title: "Hi" → "Ho"']],
    ['a key that is no identifier', { 'x-y': 1 }, { 'x-y': 2 }, ['$["x-y"]: 1 → 2']],
    ['a type change', { a: [1] }, { a: { 0: 1 } }, ['$.a: [1] → {"0":1}']],
    ['different roots', 1, 'one', ['$: 1 → "one"']],
  ])('%s', (_name, before, after, lines) => {
    expect(diffLines(jsonDiff(before, after))).toEqual(lines);
  });

  it('lists at most the limit and counts the rest', () => {
    const before = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i]));
    const after = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i + 1]));
    const lines = diffLines(jsonDiff(before, after, 20));
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('$.k0: 0 → 1');
    expect(lines[20]).toBe('… and 5 more');
  });

  it('walks a deep value without recursion', () => {
    let a: unknown = 1;
    let b: unknown = 2;
    for (let i = 0; i < 50_000; i++) { a = [a]; b = [b]; }
    const { differences } = jsonDiff(a, b);
    expect(differences).toHaveLength(1);
    expect(differences[0]!.path.endsWith('[0]')).toBe(true);
  });

  it('cuts long values', () => {
    const [line] = diffLines(jsonDiff({ a: 'x'.repeat(500) }, { a: 'y' }));
    expect(line!.length).toBeLessThan(100);
    expect(line).toContain('…');
  });
});

describe('answerDifferences', () => {
  it('names a changed status first, then the JSON paths', () => {
    expect(answerDifferences(answer(200, '{"ok":true}'), answer(500, '{"ok":false}'))).toEqual(['status: 200 → 500', '$.ok: true → false']);
  });

  it('tells a failed answer as failed', () => {
    expect(answerDifferences(answer(200, null), answer(null, null))).toEqual(['status: 200 → failed']);
  });

  it('points at the first differing character of text answers', () => {
    expect(answerDifferences(answer(200, 'Hello, ada'), answer(200, 'Hello, bob'))).toEqual(['body: from character 8: "ada" → "bob"']);
  });

  it('is empty for the same answer', () => {
    expect(answerDifferences(answer(200, '{"a":1}'), answer(200, '{"a":1}'))).toEqual([]);
  });
});
