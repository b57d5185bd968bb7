/**
 * @module config/ivm-build
 * Which isolated-vm binary a process may run guest code on. Runtime nodes: only our build with the
 * CPU-limit patch (runtime/native), so every request's CPU budget is exact; without it they refuse
 * to start (sandbox/preflight.ts). `platform dev`'s sandbox on an author's machine, where that build is
 * absent (it needs python3, make and a C++20 compiler): the package's stock prebuilt binary, whose
 * budgets are approximate: each call into the guest gets the rest of the budget as a wall-clock
 * `timeout`, and `cpuTime` counts wall time there. Production globals, memory limits and the egress
 * allow-list are the same either way.
 */

export type IsolatedVmBuild = 'patched' | 'stock';

/** Who runs guest code: a runtime node, or the development sandbox of `platform dev`. */
export type SandboxKind = 'production' | 'development';

export type IsolatedVmChoice = { build: IsolatedVmBuild } | { refused: string };

/**
 * @example selectIsolatedVm({ sandbox: 'development', patchedProblem: 'not built' }) // { build: 'stock' }
 */
export function selectIsolatedVm(input: { sandbox: SandboxKind; patchedProblem: string | null }): IsolatedVmChoice {
  if (input.patchedProblem === null) return { build: 'patched' };
  if (input.sandbox === 'development') return { build: 'stock' };
  return { refused: input.patchedProblem };
}

/** What `platform dev` says when it runs on the stock binary. */
export const APPROXIMATE_CPU_NOTE = 'The patched isolated-vm build is absent here (building it needs python3, make and a C++20 compiler), so the '
  + 'sandbox runs on isolated-vm\'s stock binary: CPU budgets are approximate (each call into the app gets the rest of its budget '
  + 'as wall time). Runtime nodes enforce them exactly; `npm run build:native` builds the patched binary.';

/** The message the stock binary throws when a call passes its `timeout` (the approximate budget). */
export const STOCK_TIMEOUT_MESSAGE = 'Script execution timed out.';
