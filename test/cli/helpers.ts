/**
 * Running the `platform` CLI's `main()` inside a test, as a user would from a project directory:
 * the working directory, the environment (`PLATFORM_*` only; the outer ones are cleared) and the
 * output streams are swapped for the call and restored after. Projects are temporary copies of
 * `test/fixtures/cli/*` with the repository's node_modules linked in, so `@platform/sdk`
 * and zod resolve as in an app author's project.
 */
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { main } from '../../cli/src/main.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = join(REPO, 'test/fixtures/cli');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const PLATFORM_ENV = ['PLATFORM_URL', 'PLATFORM_API_KEY', 'PLATFORM_CONFIG_DIR', 'XDG_CONFIG_HOME'] as const;

export async function runCli(argv: string[], options: { cwd: string; env?: Partial<Record<(typeof PLATFORM_ENV)[number], string>> }): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const previousCwd = process.cwd();
  // Empty counts as unset for the CLI, so a developer's own PLATFORM_API_KEY cannot leak in.
  for (const key of PLATFORM_ENV) vi.stubEnv(key, options.env?.[key] ?? '');
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    stderr.push(`${args.map(String).join(' ')}\n`);
  });
  const consoleLog = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    stdout.push(`${args.map(String).join(' ')}\n`);
  });
  process.chdir(options.cwd);
  try {
    const code = await main(argv);
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    process.chdir(previousCwd);
    out.mockRestore();
    err.mockRestore();
    consoleError.mockRestore();
    consoleLog.mockRestore();
    vi.unstubAllEnvs();
  }
}

export interface TempProject {
  dir: string;
  remove(): Promise<void>;
}

/** A temporary project: the fixture's files (or none), with node_modules linked to the repository's. */
export async function tempProject(fixture?: string): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-cli-'));
  if (fixture !== undefined) await cp(join(FIXTURES, fixture), dir, { recursive: true });
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
