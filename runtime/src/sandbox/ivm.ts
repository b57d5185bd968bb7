/**
 * @module sandbox/ivm
 * Loads isolated-vm (a native CommonJS addon) into a sandbox worker process: the build with our
 * CPU-limit patch (runtime/native). The package's prebuilt binary has neither the limit nor a CPU
 * clock (its `cpuTime` counts wall time on Linux): only `platform dev`'s sandbox falls back to it
 * where the patched build is absent (config/ivm-build.ts). Only worker processes load it;
 * the supervisor never does, so a V8 fault in an isolate cannot take the HTTP front down.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type IvmModule from 'isolated-vm';
import { addonPath } from '../../native/location.ts';
import type { IsolatedVmBuild } from '../config/ivm-build.ts';

declare module 'isolated-vm' {
  interface Isolate {
    /**
     * Terminates running code once `cpuTime` reaches `limit` (nanoseconds); the call throws
     * "Script execution exceeded its CPU time limit." and later calls throw at once until the
     * limit is raised or removed. Added by runtime/native's patch.
     */
    setCpuTimeLimit(limit: bigint | number | undefined): void;
  }
}

export type Ivm = typeof IvmModule;
export type Isolate = IvmModule.Isolate;
export type Context = IvmModule.Context;
export type Reference<T = unknown> = IvmModule.Reference<T>;
export type Module = IvmModule.Module;
export type ExternalCopy<T = unknown> = IvmModule.ExternalCopy<T>;

/** The message isolated-vm's patched build throws when a call passes its CPU time limit. */
export const CPU_LIMIT_MESSAGE = 'Script execution exceeded its CPU time limit.';

export function patchedAddonProblem(): string | null {
  const path = addonPath();
  return existsSync(path) ? null : `isolated-vm with the CPU-limit patch is not built for this Node (expected ${path}): run \`npm run build:native\` (npm ci does it)`;
}

export function loadIvm(build: IsolatedVmBuild = 'patched'): Ivm {
  const require = createRequire(import.meta.url);
  if (build === 'stock') return require('isolated-vm') as Ivm;
  const problem = patchedAddonProblem();
  if (problem !== null) throw new Error(problem);
  return (require(addonPath()) as { ivm: Ivm }).ivm;
}
