/**
 * The built `platform` bin end to end, as `npx platform` runs it: `scripts/build-packages.mjs`
 * (what `npm ci` / `npm run prepare` run) builds `cli/dist/cli.js`, and `cli/bin/platform.mjs`
 * runs it in its own process: usage, a login whose key is piped into stdin, a local tree check.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';
import { REPO } from './helpers.ts';

const BIN = join(REPO, 'cli/bin/platform.mjs');

function run(command: string, args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO,
      // A clean environment: only what node needs and the CLI's own variables.
      env: { PATH: process.env.PATH ?? '', HOME: options.env?.HOME ?? tmpdir(), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

let stack: Stack;
let ws: CreatedWorkspace;
let dir: string;

beforeAll(async () => {
  const built = await run(process.execPath, [join(REPO, 'scripts/build-packages.mjs')]);
  expect(built.code, built.stderr).toBe(0);
  stack = await startStack();
  ws = await stack.createWorkspace({ name: 'Bin test' });
  dir = await mkdtemp(join(tmpdir(), 'platform-bin-'));
});
afterAll(async () => {
  await stack?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the platform bin', () => {
  it('prints its commands with --help, a command\'s usage with <command> --help, and --version', async () => {
    const help = await run(process.execPath, [BIN, '--help']);
    expect(help.code).toBe(0);
    for (const command of ['login', 'build', 'deploy', 'env', 'check', 'dev']) expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
    const devHelp = await run(process.execPath, [BIN, 'dev', '--help']);
    expect(devHelp.code).toBe(0);
    expect(devHelp.stdout).toMatch(/^Usage: platform dev /);
    const version = await run(process.execPath, [BIN, '--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const unknown = await run(process.execPath, [BIN, 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "nope"');
  });

  it('logs in with the key piped into stdin', async () => {
    const configDir = join(dir, 'config');
    const login = await run(process.execPath, [BIN, 'login', '--url', stack.url], { input: `${ws.apiKey}\n`, env: { PLATFORM_CONFIG_DIR: configDir } });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${stack.url} as Olive Owner (owner) in Bin test`);
    expect(JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8'))).toMatchObject({ url: stack.url, apiKey: ws.apiKey });

    const empty = await run(process.execPath, [BIN, 'login', '--url', stack.url], { input: '', env: { PLATFORM_CONFIG_DIR: configDir } });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No key given');
  });

  it('checks a tree locally and exits 1 on a problem', async () => {
    await writeFile(join(dir, 'tree.json'), JSON.stringify({ type: 'uiBlock', attrs: { catalog: 1, summary: 'x' }, content: [] }));
    const checked = await run(process.execPath, [BIN, 'check', 'tree.json', '--local'], { cwd: dir });
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/^invalid: .+ \(at .+\)$/m);
  });
});
