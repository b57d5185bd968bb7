/**
 * @module sandbox/host-bridge
 * The two host functions every isolate's guest runtime receives (as isolated-vm Callbacks, which
 * become plain functions inside the isolate: no isolated-vm object is reachable by the guest).
 * Calls are routed to the capability registry for the request the isolate runs now; host CPU spent
 * in them is measured and charged to that request.
 */
import { CORE } from '../shared/bridge.ts';
import { findPost, findSync } from '../capabilities/registry.ts';
import type { RequestScope } from '../capabilities/types.ts';
import { threadMicros } from './cpu-clock.ts';
import type { Ivm } from './ivm.ts';

/** The current tenant of a slot: set by the request runner for the length of one request. */
export interface SlotHandler {
  readonly scope: RequestScope;
  core(method: string, args: unknown[]): void;
  charge(micros: number): void;
}

export interface BridgeTarget {
  handler: SlotHandler | null;
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
  // Fire-and-forget: the guest does not wait, and exceptions are dropped by isolated-vm; calls
  // arriving after the request ended (handler gone) are ignored.
  const post = new ivm.Callback((capability: unknown, method: unknown, ...args: unknown[]) => {
    const handler = target.handler;
    if (handler === null) return;
    const start = threadMicros();
    try {
      if (capability === CORE) handler.core(String(method), args);
      else findPost(capability, method)?.(handler.scope, args);
    } catch {
      // A malformed call from the guest: nothing to answer, the guest did not wait.
    } finally {
      handler.charge(threadMicros() - start);
    }
  }, { ignored: true });
  return { sync, post };
}
