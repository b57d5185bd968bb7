// Reference patterns: each PlatformAppPatternInvalidError reason at its boundary, and matching.
import { describe, expect, it } from 'vitest';
import { LIMITS, PATTERN_INVALID_REASONS, matchReferencePattern, parseReferencePattern, validateManifest } from '@platform/sdk';
import { manifestWith } from './manifest-fixtures.ts';

const R = LIMITS.references;
const segments = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`).join('/');
const params = (n: number) => Array.from({ length: n }, (_, i) => `:p${i}`).join('/');
const ofLength = (n: number) => {
  const head = 'https://example.com/';
  return head + 'a'.repeat(n - head.length);
};

const rows: Array<[pattern: string, reason: string | null]> = [
  ['https://example.com/:org/issues/:id', null],
  ['https://example.com', null],
  ['https://example.com/', null],
  ['https://links.example.com/a/:b/', null],
  ['https://*.example.com/:id', null],
  ["https://example.com/a-b_c.d~e!$&'()*+,;=:@%20", null],
  ['http://example.com/:id', 'not-https'],
  ['ftp://example.com/:id', 'not-https'],
  ['example.com/:id', 'malformed'],
  ['https://example.com/a?b=:c', 'malformed'],
  ['https://example.com/a#frag', 'malformed'],
  ['https://example.com:8443/a', 'malformed'],
  ['https://user@example.com/a', 'malformed'],
  ['https://Example.com/a', 'malformed'],
  ['https://localhost/a', 'malformed'],
  ['https://1.2.3.4/a', 'malformed'],
  ['https://example.com//a', 'malformed'],
  ['https://example.com/a b', 'malformed'],
  ['https://example.com/:id/:id', 'malformed'],
  ['https://example.com/:1id', 'malformed'],
  ['https://example.com/issue-:id', null], // a literal containing a colon later on is literal text
  ['https://example.com/%zz', 'malformed'],
  [`https://example.com/${segments(R.pathSegmentsPerPattern)}`, null],
  [`https://example.com/${segments(R.pathSegmentsPerPattern + 1)}`, 'too-many-segments'],
  [`https://example.com/${params(R.namedParametersPerPattern)}`, null],
  [`https://example.com/${params(R.namedParametersPerPattern + 1)}`, 'too-many-params'],
  [ofLength(R.urlLength), null],
  [ofLength(R.urlLength + 1), 'too-long'],
];

describe('reference patterns', () => {
  it.each(rows)('%s → %s', (pattern, reason) => {
    const result = validateManifest(manifestWith((m) => (m.references[0].patterns[0].pattern = pattern)));
    if (reason === null) {
      expect(result).toMatchObject({ valid: true });
    } else {
      expect(result).toMatchObject({
        valid: false,
        error: { _tag: 'PlatformAppPatternInvalidError', reason, path: ['references', 0, 'patterns', 0, 'pattern'] },
      });
    }
  });

  it('needs a claimed domain covering the host (domain-unclaimed)', () => {
    const unclaimed = validateManifest(manifestWith((m) => (m.references[0].patterns[0].pattern = 'https://example.org/:id')));
    expect(unclaimed).toMatchObject({ valid: false, error: { _tag: 'PlatformAppPatternInvalidError', reason: 'domain-unclaimed' } });
    const sibling = validateManifest(manifestWith((m) => (m.references[0].patterns[0].pattern = 'https://notexample.com/:id')));
    expect(sibling).toMatchObject({ valid: false, error: { reason: 'domain-unclaimed' } });
    const sub = validateManifest(manifestWith((m) => (m.references[0].patterns[0].pattern = 'https://*.links.example.com/:id')));
    expect(sub).toMatchObject({ valid: true });
  });

  it('covers every pattern reason', () => {
    const covered = new Set([...rows.map(([, reason]) => reason), 'domain-unclaimed']);
    for (const reason of Object.keys(PATTERN_INVALID_REASONS)) expect(covered).toContain(reason);
  });
});

describe('matching URLs against patterns', () => {
  const parse = (source: string) => {
    const parsed = parseReferencePattern(source);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.pattern;
  };

  it.each([
    ['https://example.com/:org/issues/:id', 'https://example.com/acme/issues/42', { org: 'acme', id: '42' }],
    ['https://example.com/:org/issues/:id', 'https://example.com/acme/issues/42/?tab=1#c3', { org: 'acme', id: '42' }],
    ['https://example.com/:org/issues/:id', 'https://example.com/a%20b/issues/42', { org: 'a b', id: '42' }],
    ['https://*.example.com/d/:id', 'https://eu.example.com/d/7', { id: '7' }],
    ['https://example.com/:org/issues/:id', 'https://example.com/acme/pulls/42', null],
    ['https://example.com/:org/issues/:id', 'https://example.com/acme/issues', null],
    ['https://example.com/:org/issues/:id', 'https://example.com/acme/issues/42/extra', null],
    ['https://example.com/:org/issues/:id', 'http://example.com/acme/issues/42', null],
    ['https://example.com/:org/issues/:id', 'https://example.com:444/acme/issues/42', null],
    ['https://example.com/:org/issues/:id', 'https://evil.com/acme/issues/42', null],
    ['https://*.example.com/d/:id', 'https://example.com/d/7', null],
    ['https://*.example.com/d/:id', 'https://eu.example.com.evil.com/d/7', null],
    ['https://example.com/:org/issues/:id', 'https://example.com/%E0%A4%A/issues/1', null],
    ['https://example.com/:org/issues/:id', 'not a url', null],
  ])('%s with %s', (pattern, url, expected) => {
    expect(matchReferencePattern(parse(pattern), url)).toEqual(expected);
  });
});
