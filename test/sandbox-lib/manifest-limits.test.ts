// Every manifest limit and identifier format at its boundary: the last value that passes and the
// first that fails.
import { describe, expect, it } from 'vitest';
import { EnvVarValueSchema, LIMITS, validateManifest } from '@platform/sdk';
import { hints, manifestWith, range } from './manifest-fixtures.ts';

const M = LIMITS.manifest;

type CountRow = [what: string, max: number, reason: string, fill: (m: any, n: number) => void];

const block = (type: string) => ({ type, title: 'B', props: {}, state: {} });
const option = (i: number) => ({ name: `o${i}`, description: 'x', type: 'string', required: false });

const counts: CountRow[] = [
  ['blocks per app', M.blocksPerApp, 'too-many-blocks', (m, n) => (m.blocks = range(n).map((i) => block(`b${i}`)))],
  ['actions per block', M.actionsPerBlock, 'too-many-actions', (m, n) => (m.blocks[0].actions = range(n).map((i) => ({ name: `a${i}`, hints: hints(true) })))],
  ['sections per block', M.sectionsPerBlock, 'too-many-sections', (m, n) => (m.blocks[0].sections = range(n).map((i) => `s${i}`))],
  ['values per choice input', LIMITS.blockTree.valuesPerChoiceInput, 'too-many-values', (m, n) => (m.blocks[0].inputs.vote.values = range(n).map((i) => `v${i}`))],
  ['reference kinds per app', M.referenceKindsPerApp, 'too-many-references', (m, n) => (m.references = range(n).map((i) => ({ kind: i === 0 ? 'issue' : `k${i}`, title: 'K' })))],
  ['patterns per kind', M.patternsPerKind, 'too-many-patterns', (m, n) => (m.references[0].patterns = range(n).map((i) => ({ id: `p${i}`, pattern: `https://example.com/p${i}/:id` })))],
  ['message actions', M.messageActions, 'too-many-message-actions', (m, n) => (m.messageActions = range(n).map((i) => ({ id: `m${i}`, label: 'M' })))],
  ['commands', M.commands, 'too-many-commands', (m, n) => (m.commands = range(n).map((i) => ({ name: `c${i}`, description: 'C' })))],
  ['options per command', M.optionsPerCommand, 'too-many-options', (m, n) => (m.commands = [{ name: 'c', description: 'C', options: range(n).map(option) }])],
  ['choices per option', M.choicesPerOption, 'too-many-choices', (m, n) => (m.commands[0].options[1].choices = range(n).map((i) => ({ value: `v${i}`, label: `V${i}` })))],
  ['environment variables', M.envVarsPerEnvironment, 'too-many-env', (m, n) => (m.env = range(n).map((i) => ({ key: `K${i}`, secret: false, required: false })))],
  ['outbound hosts', M.outboundHosts, 'too-many-egress-hosts', (m, n) => (m.egressHosts = range(n).map((i) => `h${i}.example.com`))],
  ['schedules', LIMITS.schedules.perApp, 'too-many-schedules', (m, n) => (m.schedules = range(n).map((i) => ({ name: `s${i}`, cron: '0 * * * *' })))],
  ['claimed domains', M.claimedDomains, 'too-many-domains', (m, n) => (m.domains = ['example.com', ...range(n - 1).map((i) => `d${i}.example.org`)])],
];

describe('manifest count limits', () => {
  it.each(counts)('%s: %i pass', (_what, max, _reason, fill) => {
    expect(validateManifest(manifestWith((m) => fill(m, max)))).toMatchObject({ valid: true });
  });
  it.each(counts)('%s: %i + 1 fail', (_what, max, reason, fill) => {
    const result = validateManifest(manifestWith((m) => fill(m, max + 1)));
    expect(result).toMatchObject({ valid: false, error: { _tag: 'PlatformAppManifestInvalidError', reason } });
  });
});

type FormatRow = [what: string, set: (m: any, value: string) => void, pass: string[], fail: string[]];

const formats: FormatRow[] = [
  ['app slug', (m, v) => (m.slug = v), ['abc', 'a'.repeat(32), 'my-app-2'], ['ab', 'a'.repeat(33), 'My-app', 'my_app', 'my app']],
  ['block type', (m, v) => (m.blocks[0].type = v), ['a', 'b'.repeat(48), 'poll-2'], ['', 'b'.repeat(49), 'Poll', 'poll_2', 'poll.2']],
  ['reference kind', (m, v) => { m.references[0].kind = v; m.commands[0].options[2].objectKind = v; }, ['a', 'k'.repeat(48)], ['', 'k'.repeat(49), 'Issue', 'is_sue']],
  ['input name', (m, v) => (m.blocks[0].inputs = { [v]: { kind: 'choice', values: ['a'] } }), ['a', 'A_b.c-9', 'i'.repeat(64)], ['i'.repeat(65), 'a b', 'a/b', 'a:b']],
  ['choice value', (m, v) => (m.blocks[0].inputs.vote.values = [v]), ['x', 'Y_z.1-2', 'v'.repeat(64)], ['', 'v'.repeat(65), 'a b', 'é']],
  ['pattern id', (m, v) => (m.references[0].patterns[0].id = v), ['p', 'Pat_1.x-y', 'p'.repeat(64)], ['', 'p'.repeat(65), 'p q']],
  ['message action id', (m, v) => (m.messageActions[0].id = v), ['m', 'Msg_1.x-y', 'm'.repeat(64)], ['', 'm'.repeat(65), 'm!']],
  ['command option name', (m, v) => (m.commands[0].options[0].name = v), ['o', 'Opt_1.x-y', 'o'.repeat(64)], ['', 'o'.repeat(65), 'o p']],
  ['command name', (m, v) => (m.commands[0].name = v), ['p', 'p'.repeat(32), 'poll-2'], ['', 'p'.repeat(33), '2poll', 'Poll', 'po_ll', '-poll']],
  ['section name', (m, v) => (m.blocks[0].sections = [v]), ['s', 'Sec_1-x', 's'.repeat(48)], ['', 's'.repeat(49), 's.x', 's x']],
  ['environment variable key', (m, v) => (m.env = [{ key: v, secret: false, required: false }]), ['A', '_a', 'A'.repeat(64), 'a_1'], ['', 'A'.repeat(65), '1A', 'A-B', 'A.B']],
  ['action name', (m, v) => (m.blocks[0].actions[1].name = v), ['a', 'vote.up_2-x', 'a'.repeat(64)], ['', 'a'.repeat(65), 'Vote', 'vo te']],
];

describe('identifier formats', () => {
  for (const [what, set, pass, fail] of formats) {
    it.each(pass)(`${what}: %j passes`, (value) => {
      expect(validateManifest(manifestWith((m) => set(m, value)))).toMatchObject({ valid: true });
    });
    it.each(fail)(`${what}: %j fails`, (value) => {
      expect(validateManifest(manifestWith((m) => set(m, value)))).toMatchObject({ valid: false, error: { reason: 'invalid' } });
    });
  }
});

describe('other manifest limits', () => {
  it.each([
    [LIMITS.blockData.staleAfterMinSeconds, true], [LIMITS.blockData.staleAfterMaxSeconds, true],
    [LIMITS.blockData.staleAfterMinSeconds - 1, false], [LIMITS.blockData.staleAfterMaxSeconds + 1, false], [90.5, false],
  ])('staleAfter %d: valid %s', (staleAfter, valid) => {
    const result = validateManifest(manifestWith((m) => (m.blocks[0].staleAfter = staleAfter)));
    expect(result.valid).toBe(valid);
    if (!result.valid) expect(result.error).toMatchObject({ reason: 'invalid', path: ['blocks', 0, 'staleAfter'] });
  });

  it('environment variable values are at most 5 KB (bytes, not characters)', () => {
    expect(EnvVarValueSchema.safeParse('x'.repeat(M.envValueBytes)).success).toBe(true);
    expect(EnvVarValueSchema.safeParse('x'.repeat(M.envValueBytes + 1)).success).toBe(false);
    expect(EnvVarValueSchema.safeParse('é'.repeat(M.envValueBytes / 2)).success).toBe(true);
    expect(EnvVarValueSchema.safeParse('é'.repeat(M.envValueBytes / 2) + 'x').success).toBe(false);
  });

  it('counts titles in characters as people see them', () => {
    const family = '👨‍👩‍👧‍👦'; // one grapheme, 11 UTF-16 code units
    expect(validateManifest(manifestWith((m) => (m.blocks[0].title = family.repeat(LIMITS.manifestText.blockTitle))))).toMatchObject({ valid: true });
    expect(validateManifest(manifestWith((m) => (m.blocks[0].title = family.repeat(LIMITS.manifestText.blockTitle + 1))))).toMatchObject({ valid: false, error: { reason: 'invalid', path: ['blocks', 0, 'title'] } });
    expect(validateManifest(manifestWith((m) => (m.blocks[0].title = '   '))).valid).toBe(false);
  });
});
