/**
 * @module sandbox/host-bridge
 * The two host functions every isolate's guest runtime receives (as isolated-vm Callbacks, which
 * become plain functions inside the isolate: no isolated-vm object is reachable by the guest).
 * Both run synchronously on the worker's thread while the guest waits, so their effects are in
 * order with the guest's own (a console line before the response is logged before it). Calls are
 * routed to the capability registry for the request the isolate runs now. isolated-vm pauses the
 * isolate's CPU clock during a callback, so the host CPU spent here is measured and charged to the
 * request explicitly.
 */
import { CORE } from '../shared/bridge.ts';
import { findPost, findSync } from '../capabilities/registry.ts';
import type { RequestScope } from '../capabilities/types.ts';
import type { Ivm } from './ivm.ts';

/** The current tenant of a slot: set by the request runner for the length of one request. */
export interface SlotHandler {
  readonly scope: RequestScope;
  core(method: string, args: unknown[]): void;
  /** Host CPU (microseconds) spent on the guest's behalf. */
  charge(micros: number): void;
}

export interface BridgeTarget {
  handler: SlotHandler | null;
}

/** Microseconds of CPU the calling thread used so far. */
function threadMicros(): number {
  const t = process.threadCpuUsage();
  return t.user + t.system;
}

export function createBridge(ivm: Ivm, target: BridgeTarget) {
  const sync = new ivm.Callback((capability: unknown, method: unknown, ...args: unknown[]) => {
    const fn = findSync(capability, method);
    if (fn === undefined) throw new TypeError('Unknown platform call');
    const handler = target.handler;
    const start = threadMicros();
    try {
      return fn(handler?.scope ?? null, args);
    } finally {
      handler?.charge(threadMicros() - start);
    }
  });
  // Returns nothing to the guest; calls made when no request holds the slot are ignored.
  const post = new ivm.Callback((capability: unknown, method: unknown, ...args: unknown[]) => {
    const handler = target.handler;
    if (handler === null) return;
    try {
      if (capability === CORE) handler.core(String(method), args);
      else findPost(capability, method)?.(handler.scope, args);
    } catch {
      // A malformed call from the guest: nothing to answer.
    }
  });
  return { sync, post };
}
