/**
 * How every command reads its arguments (`node:util` parseArgs plus our rules), help on every
 * command (stdout, exit 0) and `--version`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError, wantsHelp } from '../../cli/src/args.ts';
import { COMMANDS } from '../../cli/src/main.ts';
import { REPO, runCli } from './helpers.ts';

const specs = {
  manifest: { type: 'string' },
  once: { type: 'boolean' },
  url: { type: 'string', aliases: ['base-url'] },
} as const;

describe('parseCommandArgs', () => {
  it('reads --name value, --name=value, booleans and plain arguments', () => {
    expect(parseCommandArgs(['app.ts', '--manifest', 'a.json', '--once'], specs)).toEqual({ flags: { manifest: 'a.json', once: true }, positionals: ['app.ts'], aliasesUsed: [] });
    expect(parseCommandArgs(['--manifest=b.json'], specs).flags).toEqual({ manifest: 'b.json' });
    // After `--`, everything is a plain argument.
    expect(parseCommandArgs(['--', '--once'], specs)).toMatchObject({ flags: {}, positionals: ['--once'] });
  });

  it.each([
    [['--manfest', 'a.json'], 'Unknown option --manfest'],
    [['-x'], 'Unknown option -x'],
    [['--manifest'], '--manifest needs a value'],
    [['--manifest='], '--manifest needs a value'],
    [['--url', '--once'], '--url needs a value'],
    [['--once=yes'], '--once takes no value'],
    [['--url', 'http://a', '--base-url', 'http://b'], '--url and --base-url are the same option; give one'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseCommandArgs(argv, specs)).toThrow(UsageError);
    expect(() => parseCommandArgs(argv, specs)).toThrow(message);
  });

  it('folds an old name into the current one and says which was used', () => {
    expect(parseCommandArgs(['--base-url', 'http://a'], specs)).toEqual({ flags: { url: 'http://a' }, positionals: [], aliasesUsed: [['--base-url', '--url']] });
    // Both names with the same value is not a conflict.
    expect(parseCommandArgs(['--url', 'http://a', '--base-url', 'http://a'], specs).flags).toEqual({ url: 'http://a' });
  });

  it('sees a help request before --, not after', () => {
    expect(wantsHelp(['--app', 'x', '-h'])).toBe(true);
    expect(wantsHelp(['--', '--help'])).toBe(false);
  });
});

describe('help and version', () => {
  it.each(Object.keys(COMMANDS))('platform %s --help prints its usage on stdout and exits 0', async (name) => {
    for (const argv of [[name, '--help'], [name, '-h'], ['help', name]]) {
      const run = await runCli(argv, { cwd: REPO });
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toBe(`${COMMANDS[name]!.usage}\n`);
      expect(run.stderr).toBe('');
    }
  });

  it('documents --url and --key on every command that calls the service', () => {
    for (const name of ['login', 'deploy', 'env', 'check', 'dev']) {
      expect(COMMANDS[name]!.usage).toContain('--url <service URL>');
      expect(COMMANDS[name]!.usage).toMatch(/--key <[^>]+>/);
    }
  });

  it('prints the CLI version with --version', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'cli/package.json'), 'utf8')) as { version: string };
    const run = await runCli(['--version'], { cwd: REPO });
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('answers a wrong command or option with the usage on stderr and exit 2', async () => {
    const unknown = await runCli(['help', 'nope'], { cwd: REPO });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "nope"');
    const bad = await runCli(['deploy', '--wat'], { cwd: REPO });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`Unknown option --wat\n\n${COMMANDS.deploy!.usage}\n`);
  });
});
