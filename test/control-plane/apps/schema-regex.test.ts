/**
 * Regular expressions of app schemas (`pattern`, `patternProperties`, `propertyNames`) run on a
 * linear-time engine (RE2), so an app cannot stall the control plane with a catastrophic pattern
 * and a value built for it; patterns RE2 cannot run are refused when the version is accepted
 * (422 `PlatformAppManifestInvalidError`, `reason: invalid`, located at the pattern).
 *
 * No timing is asserted: `HOSTILE` against `^(a+)+$` takes V8's backtracking RegExp about 90 s on
 * this machine (each extra `a` doubles it), so a regression fails on vitest's 30 s test timeout
 * (vitest fails a test that blocked past its timeout once it returns: checked by swapping the
 * engine back) instead of passing or hanging. Hostile values are kept that short on purpose.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileVersionValidators, MAX_URL_FORMAT_LENGTH, SchemaCompileError } from '../../../control-plane/src/apps/versions/validators.ts';
import { compileSafeRegExp, KEEP_DFA_BYTES, MAX_PATTERN_PROGRAM } from '../../../control-plane/src/apps/versions/safe-regexp.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp, selfManifest, sync } from './helpers.ts';

const CATASTROPHIC = '^(a+)+$';
const HOSTILE = `${'a'.repeat(32)}!`;

/** The validator of one props schema, compiled as a version's are. */
function validatorOf(schema: Record<string, unknown>) {
  const block = { type: 'b', title: 'B', props: schema, state: { type: 'object' }, actions: [] };
  return compileVersionValidators({ blocks: [block], installConfig: undefined } as never).props.get('b')!;
}

/** The SchemaCompileError compiling `schema` as a block's props throws. */
function refusal(schema: Record<string, unknown>): SchemaCompileError {
  try {
    validatorOf(schema);
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaCompileError);
    return err as SchemaCompileError;
  }
  throw new Error(`${JSON.stringify(schema)} compiled`);
}

describe('a catastrophic pattern with a hostile value completes and answers correctly', () => {
  it('in pattern', () => {
    const validate = validatorOf({ type: 'object', properties: { name: { type: 'string', pattern: CATASTROPHIC } } });
    expect(validate({ name: HOSTILE })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'pattern', instancePath: '/name', params: { pattern: CATASTROPHIC } });
    expect(validate({ name: 'a'.repeat(10_000) })).toBe(true);
  });

  it('in patternProperties, with and without additionalProperties: false (which tests every key again)', () => {
    for (const additionalProperties of [true, false]) {
      const validate = validatorOf({ type: 'object', patternProperties: { [CATASTROPHIC]: { type: 'integer' } }, additionalProperties });
      // The key does not match: no schema applies to it, and additionalProperties decides.
      expect(validate({ [HOSTILE]: 'x' })).toBe(additionalProperties);
      expect(validate({ aaaa: 'x' })).toBe(false);
      expect(validate({ aaaa: 1 })).toBe(true);
    }
  });

  it('in propertyNames', () => {
    const validate = validatorOf({ type: 'object', propertyNames: { pattern: CATASTROPHIC } });
    expect(validate({ [HOSTILE]: 1 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'pattern', params: { pattern: CATASTROPHIC } });
    expect(validate({ aaa: 1, a: 2 })).toBe(true);
  });

  it('compiling never runs a pattern on V8 (strict mode\'s "property matches pattern" check stays off)', () => {
    const validate = validatorOf({ type: 'object', properties: { [HOSTILE]: { type: 'string' } }, patternProperties: { [CATASTROPHIC]: { type: 'integer' } } });
    expect(validate({ [HOSTILE]: 'x' })).toBe(true);
  });

  it('two patterns of one schema each keep their own engine (ajv shares one per distinct pattern)', () => {
    const validate = validatorOf({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' }, c: { type: 'string', pattern: '^a+$' } },
    });
    expect(validate({ a: 'aa', b: 'bb', c: 'a' })).toBe(true);
    expect(validate({ a: 'bb', b: 'bb' })).toBe(false);
    expect(validate({ a: 'aa', b: 'aa' })).toBe(false);
  });
});

describe('ordinary patterns validate as before', () => {
  // [pattern, matching values, non-matching values]; with the u flag, as ajv reads patterns.
  const table: Array<[string, string[], string[]]> = [
    ['^[a-z0-9-]+$', ['my-app', '42', '-'], ['My-App', '', 'a b', 'ü', 'a\n']],
    ['^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$', ['a', 'my-host-1'], ['-a', 'a-', 'a'.repeat(64)]],
    ['^\\d{4}-\\d{2}-\\d{2}$', ['2024-05-01'], ['2024-5-1', '١٢٣٤-٠١-٠١']],
    ['^\\w+$', ['snake_case_1'], ['é', 'kebab-case']],
    ['^\\s*$', ['', ' \t\n', '\u00a0', '\u2028', '\ufeff', '\u3000'], ['\u200b', 'x']],
    ['^\\S+$', ['abc', 'é😀'], ['a b', 'a\u00a0b']],
    ['^.$', ['a', '😀', 'é'], ['\n', '\r', '\u2028', '\u2029', 'ab']],
    ['^.{2}$', ['ab', '😀😀'], ['😀']],
    ['^\\p{L}+$', ['héllo', 'Ωμέγα', '日本'], ['abc1', 'a b']],
    ['^\\p{Lu}\\p{Ll}*$', ['Élan', 'A'], ['élan']],
    ['^\\p{Letter}+$', ['héllo'], ['1']],
    ['^\\p{General_Category=Decimal_Number}+$', ['123', '١٢٣'], ['a']],
    ['^\\p{Script=Greek}+$', ['Ωμέγα'], ['abc']],
    ['^\\P{ASCII}+$', ['é日'], ['e']],
    ['^\\p{Emoji_Presentation}$', ['😀'], ['a']],
    ['^[\\u{1F600}-\\u{1F64F}]+$', ['😀😃'], ['a']],
    ['^\\ud83d\\ude00$', ['😀'], ['\ud83d']],
    ['^\\u00e9$', ['é'], ['e']],
    ['^[^\\S\\n]+$', [' \t', '\u00a0'], [' \n', 'a']],
    ['^[a\\S]+$', ['abc', 'a'], ['a ']],
    ['^[^]$', ['\n', '😀'], ['']],
    ['^[]?$', [''], ['a']],
    ['^[[:alpha:]+$', ['[:a', 'hla'], ['x']],
    ['^\\$\\^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\\\\\/$', ['$^.*+?()[]{}|\\/'], ['x']],
    ['\\bcat\\b', ['a cat.', 'cat'], ['concat', 'cats']],
    ['^(?<year>\\d{4})-(\\d{2})$', ['2024-05'], ['24-05']],
    ['^(a|b)*?c$', ['ababc', 'c'], ['abab']],
    ['a$', ['ba'], ['a\n']],
    ['^[\\x00-\\x1f]$', ['\t', '\0'], [' ']],
    ['', ['', 'anything'], []],
  ];
  it.each(table)('%s', (pattern, matching, nonMatching) => {
    const validate = validatorOf({ type: 'string', pattern });
    for (const value of matching) expect(validate(value), JSON.stringify(value)).toBe(true);
    for (const value of nonMatching) expect(validate(value), JSON.stringify(value)).toBe(false);
  });

  it('agrees with V8 on generated patterns and short values (which cannot blow up V8)', () => {
    const atom = fc.constantFrom('a', 'b', '-', ' ', 'é', '😀', '.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '[ab]', '[^a]', '[a-c]',
      '[\\s\\d]', '[^\\S\\n]', '[a\\S]', '[^a\\S]', '\\p{L}', '\\P{L}', '\\p{Lu}', '\\p{Script=Greek}', '[\\p{N}_]', '\\u00e9', '\\n', '\\/', '\\.', '^', '$');
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?');
    const pattern = fc.letrec<{ expr: string }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.tuple(atom, quantifier).map(([a, q]) => (a === '^' || a === '$' || a === '\\b' || a === '\\B' ? a : a + q)),
        fc.tuple(tie('expr'), tie('expr')).map(([x, y]) => x + y),
        fc.tuple(tie('expr'), tie('expr')).map(([x, y]) => `${x}|${y}`),
        fc.tuple(fc.constantFrom('(', '(?:'), tie('expr'), quantifier).map(([open, x, q]) => `${open}${x})${q}`),
      ),
    })).expr;
    const value = fc.array(fc.constantFrom('a', 'b', 'A', '1', '-', '_', ' ', '\n', '\r', '\u2028', '\u00a0', 'é', 'Ω', '😀', '\ud800'), { maxLength: 8 }).map((cs) => cs.join(''));
    fc.assert(fc.property(pattern, fc.array(value, { minLength: 1, maxLength: 10 }), (source, values) => {
      const v8 = new RegExp(source, 'u');
      const safe = compileSafeRegExp(source);
      for (const v of values) {
        // V8 tries `\B` between the two halves of an astral character even with the u flag (/\B/u
        // matches "a😀a"); ECMA-262 advances by code point there, as RE2 does. Not compared.
        if (source.includes('\\B') && /[\u{10000}-\u{10FFFF}]/u.test(v)) continue;
        expect(safe.test(v), `${source} on ${JSON.stringify(v)}`).toBe(v8.test(v));
      }
    }), { numRuns: 400 });
  });

  it('the url format keeps its meaning up to the length cap and refuses longer strings', () => {
    const validate = validatorOf({ type: 'string', format: 'url' });
    expect(validate('https://example.com/a?b=c')).toBe(true);
    expect(validate('not a url')).toBe(false);
    expect(validate(`https://example.com/${'a'.repeat(MAX_URL_FORMAT_LENGTH - 20)}`)).toBe(true);
    expect(validate(`https://example.com/${'a'.repeat(MAX_URL_FORMAT_LENGTH)}`)).toBe(false);
    expect(validate(`http://${':'.repeat(60_000)}`)).toBe(false);
  });
});

describe('patterns RE2 cannot run are refused at compile time, located at the pattern', () => {
  const cases: Array<[string, Record<string, unknown>, Array<string | number>, RegExp]> = [
    ['a backreference', { type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } }, ['properties', 'code', 'pattern'], /backreferences/],
    ['a named backreference', { type: 'string', pattern: '^(?<q>["\'])x\\k<q>$' }, ['pattern'], /backreferences/],
    ['a lookahead', { type: 'object', propertyNames: { pattern: '^(?!admin)' } }, ['propertyNames', 'pattern'], /lookahead/],
    ['a lookbehind', { type: 'object', patternProperties: { '(?<=x)y': { type: 'string' } } }, ['patternProperties', '(?<=x)y'], /lookbehind/],
    ['a modifier', { type: 'array', items: { type: 'string', pattern: '^(?i:abc)$' } }, ['items', 'pattern'], /modifiers/],
    ['a repeat count over 1000', { anyOf: [{ type: 'string', pattern: '^a{2000}$' }] }, ['anyOf', 0, 'pattern'], /repeat count/],
    ['a program over the cap', { type: 'string', pattern: '^.{0,1000}$' }, ['pattern'], new RegExp(`at most ${MAX_PATTERN_PROGRAM}`)],
    ['a script extension', { $defs: { g: { type: 'string', pattern: '\\p{scx=Greek}' } }, $ref: '#/$defs/g' }, ['$defs', 'g', 'pattern'], /Script_Extensions/],
    ['a binary property RE2 lacks', { type: 'string', pattern: '^\\p{ID_Start}' }, ['pattern'], /refuses it/],
  ];
  it.each(cases)('%s', (_name, schema, at, message) => {
    const err = refusal(schema);
    expect(err.path).toEqual(['blocks', 0, 'props', ...at]);
    expect(err.message).toMatch(message);
    expect(err.message).toContain(` at /${at.map(String).join('/')}`);
  });
});

describe('the DFA a pattern keeps between calls', () => {
  it('is dropped after a call that grew it past the cap, and kept when small', () => {
    let x = 1;
    const randomAb = Array.from({ length: 20_000 }, () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) >> 16) & 1 ? 'a' : 'b').join('');
    const exploding = compileSafeRegExp('[ab]*a[ab]{20}[^ab]');
    expect(exploding.test(randomAb)).toBe(false);
    expect(exploding.keptDfaBytes).toBeLessThanOrEqual(KEEP_DFA_BYTES);
    expect(exploding.test(`${randomAb.slice(0, 30)}a${'b'.repeat(20)}c`)).toBe(true);
    // (A one-pass pattern such as `^[a-z0-9-]+$` never builds a DFA; this one does.)
    const ordinary = compileSafeRegExp('\\w+@\\w+');
    expect(ordinary.test('hi me@example')).toBe(true);
    expect(ordinary.keptDfaBytes).toBeGreaterThan(0);
  });
});

describe('over HTTP', () => {
  let stack: Stack;
  let developer: CreatedWorkspace;
  let customer: CreatedWorkspace;
  beforeAll(async () => {
    stack = await startStack();
    developer = await stack.createWorkspace({ name: 'Developer' });
    customer = await stack.createWorkspace({ name: 'Customer' });
  });
  afterAll(async () => stack?.stop());

  it('a pattern RE2 cannot run: 422 PlatformAppManifestInvalidError, reason invalid, path at the pattern; the version is not recorded', async () => {
    const { app } = await createApp(developer.client);
    const manifest = selfManifest(app.slug);
    (manifest.blocks as Array<Record<string, unknown>>)[0]!.props = {
      type: 'object', properties: { question: { type: 'string', pattern: '^(?=.*\\d)\\w+$' } }, required: ['question'],
    };
    const res = await stack.v0(developer.apiKey).put(`/apps/${app.id}/manifest`, { manifest, target: 'preview' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: ['blocks', 0, 'props', 'properties', 'question', 'pattern'] });
    expect(res.body.message).toMatch(/lookahead/);
    const backref = selfManifest(app.slug, { installConfig: { type: 'object', patternProperties: { '^(\\w)\\1$': { type: 'string' } } } });
    const res2 = await stack.v0(developer.apiKey).put(`/apps/${app.id}/manifest`, { manifest: backref, target: 'preview' });
    expect(res2.status).toBe(422);
    expect(res2.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'invalid', path: ['installConfig', 'patternProperties', '^(\\w)\\1$'] });
    expect((await stack.v0(developer.apiKey).get(`/apps/${app.id}/manifest?target=preview`)).status).toBe(404);
  });

  it('a version stored before the rule, with a pattern now refused, answers the same 422 when its validators load', async () => {
    const { app } = await createApp(developer.client);
    await sync(stack, developer.apiKey, app.id, selfManifest(app.slug), 'preview');
    // Version 2 as an older control plane could have recorded it (accepting a version caches its
    // validators, so the row is written directly to load them from the database).
    await stack.db.query(
      `insert into app_versions (app_id, version, target, manifest, manifest_hash, bundle_sha256, bundle_bytes, created_at)
       select app_id, 2, target, jsonb_set(manifest, '{blocks,0,props,properties,question,pattern}', '"^(?!x)"'), 'old', null, null, created_at
       from app_versions where app_id = $1 and version = 1`, [app.id]);
    const loading = stack.controlPlane.apps.schemaValidators(app.id, 2);
    await expect(loading).rejects.toMatchObject({
      tag: 'PlatformAppManifestInvalidError', status: 422, fields: { reason: 'invalid' }, path: ['blocks', 0, 'props', 'properties', 'question', 'pattern'],
    });
  });

  it('a hostile install config against a catastrophic pattern answers 400 at once, a matching one installs', async () => {
    const { app } = await createApp(developer.client);
    const installConfig = { type: 'object', properties: { team: { type: 'string', pattern: CATASTROPHIC } }, required: ['team'] };
    await sync(stack, developer.apiKey, app.id, selfManifest(app.slug, { installConfig }), 'production');
    const hostile = await customer.client.post(`/apps/${app.id}/installs`, { version: 1, config: { team: HOSTILE } });
    expect(hostile.status).toBe(400);
    expect(hostile.body._tag).toBe('PlatformApiInvalidRequestError');
    expect(hostile.body.issues.map((i: { path: unknown[] }) => i.path)).toContainEqual(['config', 'team']);
    const fine = await customer.client.post(`/apps/${app.id}/installs`, { version: 1, config: { team: 'aaaa' } });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
  });
});
