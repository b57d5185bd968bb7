/**
 * @module sandbox/cold-start
 * Loads an app version's bundle into a blank isolate: the prepared script form with this
 * process's code cache when there is one (fast), else the module (and its script form is queued
 * for preparation: the conversion relies on V8 having accepted it as a module). Evaluating the
 * bundle runs guest code: it runs under the startup CPU budget, as one synchronous slice.
 */
import { readFileSync } from 'node:fs';
import type { VersionSpec } from '../protocol/messages.ts';
import type { RawError } from '../stacks/map.ts';
import type { Background } from './background.ts';
import type { SlotHandler } from './host-bridge.ts';
import { runSlice } from './slice.ts';
import type { LoadedBundle, Slot } from './slot.ts';

/**
 * Why a cold start failed. `guestStack`: the guest's stack when stopped over budget; `thrown`: what
 * the bundle's top level threw, when it threw (its stack names where).
 */
export class StartupError extends Error {
  readonly kind: 'cpu' | 'memory' | 'error';
  readonly guestStack: string | null;
  readonly thrown: RawError | null;
  constructor(kind: 'cpu' | 'memory' | 'error', message: string, guestStack: string | null = null, thrown: RawError | null = null) {
    super(message);
    this.kind = kind;
    this.guestStack = guestStack;
    this.thrown = thrown;
  }
}

/** What a bundle whose top level threw says: the thrown error's first line (its frames go beside it). */
export function failedToStart(result: { message: string; error: RawError | null }): string {
  return `The bundle failed to start: ${result.error === null ? result.message : `${result.error.name}: ${result.error.message}`}`;
}

/** Compiles `spec`'s bundle into `slot` (host work only: no guest code runs yet). */
export function compileBundle(slot: Slot, spec: VersionSpec, background: Background): LoadedBundle {
  const plan = background.plans.get(spec.sha256);
  if (plan?.mode === 'script') {
    background.counts.scriptStarts++;
    const loaded = slot.compileScript(plan.script, plan.cachedData);
    if (loaded.cachedDataRejected) {
      background.counts.cacheRejected++;
      background.plans.delete(spec.sha256);
    }
    return loaded;
  }
  background.counts.moduleStarts++;
  const source = readFileSync(spec.bundlePath, 'utf8');
  const loaded = slot.compileModule(source);
  if (plan === undefined) background.queuePreparation(spec.sha256, source);
  return loaded;
}

/**
 * A slot running `spec`'s bundle, or a StartupError. `enter` is called right before guest code
 * first runs (the entry journal).
 */
export function coldStart(deps: { background: Background; blank: () => Slot; startupCpuMs: number }, spec: VersionSpec, handler: SlotHandler, enter: () => void): Slot {
  const slot = deps.background.takeSpare() ?? deps.blank();
  deps.background.kick();
  slot.key = spec.key;
  slot.handler = handler;
  const account = { usedNs: 0, limitNs: deps.startupCpuMs * 1e6 };
  let loaded: LoadedBundle;
  try {
    loaded = compileBundle(slot, spec, deps.background);
  } catch (err) {
    slot.dispose('startup');
    throw new StartupError('error', `The bundle failed to start: ${err instanceof Error ? err.message : 'unknown error'}`);
  }
  enter();
  let problem: string | null = null;
  const result = runSlice(slot.isolate, account, () => {
    loaded.evaluate();
    problem = loaded.bind();
  });
  if (result.kind === 'ok' && problem === null) return slot;
  slot.dispose('startup');
  if (result.kind === 'cpu') throw new StartupError('cpu', 'The bundle used more CPU than allowed while starting', result.stack);
  if (result.kind === 'memory') throw new StartupError('memory', 'The bundle used more memory than allowed while starting');
  if (problem !== null) throw new StartupError('error', problem);
  throw result.kind === 'error'
    ? new StartupError('error', failedToStart(result), null, result.error)
    : new StartupError('error', 'The bundle failed to start: its isolate was disposed');
}
