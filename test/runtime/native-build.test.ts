/**
 * runtime/native/build.ts (issue 20, item 4): a build is reused across clones through the machine's
 * cache (`$XDG_CACHE_HOME/platform/isolated-vm/<key>/`), and without a toolchain `npm ci` goes on
 * with a warning (platform dev then runs on the stock binary) unless the build is required
 * (`--force`, CI=true). The script runs as a child from a copy of runtime/native, so this clone's
 * own build is never touched; the compiler is never run here (that takes minutes).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKey, cachedAddonPath } from '../../runtime/native/location.ts';

const RUNTIME = join(import.meta.dirname, '../../runtime');
let copy: string;
let cache: string;
let empty: string;

beforeAll(() => {
  // Inside runtime/, so `../package.json` and node_modules resolve as for the real script.
  copy = mkdtempSync(join(RUNTIME, '.native-test-'));
  for (const f of ['build.ts', 'location.ts', 'isolated-vm-7.0.1-cpu-limit.patch']) cpSync(join(RUNTIME, 'native', f), join(copy, f));
  cache = mkdtempSync(join(tmpdir(), 'native-cache-'));
  empty = mkdtempSync(join(tmpdir(), 'no-toolchain-'));
});
afterAll(() => {
  for (const dir of [copy, cache, empty]) rmSync(dir, { recursive: true, force: true });
});

/** The build script with a PATH that has no node-gyp, make or compiler on it. */
function build(args: string[] = [], env: Record<string, string> = {}) {
  const base: NodeJS.ProcessEnv = { PATH: empty, HOME: cache, XDG_CACHE_HOME: cache, ...env };
  return spawnSync(process.execPath, [join(copy, 'build.ts'), ...args], { env: base, encoding: 'utf8' });
}

describe('the native build', () => {
  it('keys the machine\'s cache by the same key as the clone\'s build', () => {
    expect(cachedAddonPath('abc', { XDG_CACHE_HOME: '/c' })).toBe('/c/platform/isolated-vm/abc/isolated_vm.node');
    expect(cachedAddonPath('abc', { HOME: '/h' })).toMatch(/\/\.cache\/platform\/isolated-vm\/abc\/isolated_vm\.node$/);
  });

  it('without a toolchain, warns and lets npm ci go on; fails when the build is required', () => {
    const relaxed = build();
    expect(relaxed.status, relaxed.stderr).toBe(0);
    expect(relaxed.stdout).toMatch(/compiling isolated-vm 7\.0\.1 with the CPU-limit patch: \d+ files/);
    expect(relaxed.stderr).toContain('compiling failed');
    expect(relaxed.stderr).toContain('python3, make and a C++20 compiler');
    expect(relaxed.stderr).toContain('`platform dev` runs on isolated-vm\'s stock binary');
    expect(build([], { CI: 'true' }).status).toBe(1);
    expect(build(['--force']).status).toBe(1);
  });

  it('reuses a build another clone left in the machine\'s cache instead of compiling', () => {
    const key = buildKey();
    const shared = cachedAddonPath(key, { XDG_CACHE_HOME: cache });
    mkdirSync(join(shared, '..'), { recursive: true });
    writeFileSync(shared, 'the addon another clone built');
    const run = build();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`reused from ${shared}`);
    const local = join(copy, '.build', key, 'isolated_vm.node');
    expect(readFileSync(local, 'utf8')).toBe('the addon another clone built');
    // Then it is this clone's own, up to date.
    expect(build().stdout).toContain(`is up to date (${key})`);
    expect(existsSync(local)).toBe(true);
  });
});

